import { createHash } from 'node:crypto';
import type pg from 'pg';
import { PLANNED_PER_CALL_TEXT } from '../engine/planned-per-call.js';

/** A small, fixed set of SQL texts in practice; past this the names start over. */
const MAX_STATEMENT_NAMES = 5000;
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;
const statementNames = new Map<string, string>();

/**
 * Data queries run as named prepared statements, so PostgreSQL parses and
 * plans each SQL text once per connection instead of on every request.
 */
export function asNamedStatement(text: string, values: readonly unknown[]): pg.QueryConfig | undefined {
  if (!PREPARABLE.test(text) || text.endsWith(PLANNED_PER_CALL_TEXT)) return undefined;
  let name = statementNames.get(text);
  if (!name) {
    if (statementNames.size >= MAX_STATEMENT_NAMES) statementNames.clear();
    name = `fa_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return { name, text, values: values as unknown[] };
}
