import type { Database } from './database.js';
import { type ChangeCounter, engineOf } from './engine/engine.js';

export type { ChangeCounter } from './engine/engine.js';

/**
 * Tells whether another connection may have changed a table since a value
 * was read from it, so that the value can be kept in memory until then
 * (verified API keys): each engine watches its own way (Engine.watchChanges).
 */
export function openChangeCounter(database: Database, channel: string): ChangeCounter {
  return engineOf(database.db).watchChanges(channel);
}
