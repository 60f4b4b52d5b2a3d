import type pg from 'pg';
import type { ChangeCounter } from '../engine/engine.js';

const RECONNECT_AFTER_MS = 1000;

/**
 * One listening connection for `channel`, outside the pool: the generation
 * moves on every notification and on every reconnect. While it is not
 * listening, generation() is undefined, so nothing is kept.
 */
export function listenForChanges(connect: () => pg.Client, channel: string): ChangeCounter {
  let generation = 0;
  let listening = false;
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const drop = (stale: pg.Client): Promise<void> => {
    stale.removeAllListeners();
    stale.on('error', () => {});
    return stale.end().catch(() => {});
  };

  const lost = () => {
    listening = false;
    generation++;
    if (client) void drop(client);
    client = undefined;
    if (!closed) retry = setTimeout(start, RECONNECT_AFTER_MS).unref();
  };

  async function start() {
    const candidate = connect();
    client = candidate;
    candidate.on('error', lost);
    candidate.on('end', () => candidate === client && lost());
    candidate.on('notification', () => generation++);
    try {
      await candidate.connect();
      await candidate.query(`listen ${channel}`);
    } catch {
      if (candidate === client) lost();
      return;
    }
    // Closed (or replaced) while connecting: this connection is not wanted.
    if (candidate !== client) return void drop(candidate);
    generation++;
    listening = true;
  }
  void start();

  return {
    generation: () => (listening ? generation : undefined),
    close: async () => {
      closed = true;
      clearTimeout(retry);
      listening = false;
      const current = client;
      client = undefined;
      if (current) await drop(current);
    },
  };
}
