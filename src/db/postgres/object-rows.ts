import type { PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import { type RowMaker, rowMakerOf } from '../engine/row-maker.js';
import { asNamedStatement } from './named-statements.js';

/** A small, fixed set of SQL texts in practice; past this the makers start over. */
const MAX_ROW_MAKERS = 5000;
/** By SQL text: the row maker of its columns, or null where the driver's objects are kept. */
const rowMakers = new Map<string, RowMaker | null>();

interface Queryable {
  query(config: pg.QueryConfig): Promise<pg.QueryResult>;
}

/**
 * Runs a query (a named prepared statement where asNamedStatement makes one)
 * with pg's rows as arrays, and makes them objects with the statement's
 * row maker (rowMakerOf): pg builds its row objects one property at a time.
 */
export async function queryObjects(
  client: Queryable,
  text: string,
  values: readonly unknown[],
): Promise<pg.QueryResult> {
  const config = asNamedStatement(text, values) ?? { text, values: values as unknown[] };
  const result = await client.query({ ...config, rowMode: 'array' } as pg.QueryConfig);
  // Several statements in one text answer several results; none is a page or a point read.
  if (Array.isArray(result) || result.fields === undefined || result.rows.length === 0) return result;
  let maker = rowMakers.get(text);
  if (maker === undefined) {
    if (rowMakers.size >= MAX_ROW_MAKERS) rowMakers.clear();
    maker = rowMakerOf(result.fields.map((field) => field.name)) ?? null;
    rowMakers.set(text, maker);
  }
  const rows = result.rows as unknown as unknown[][];
  const objects = maker === null ? rows.map((row) => objectOf(result.fields, row)) : rows.map(maker);
  return { ...result, rows: objects };
}

/** A row as pg makes it: the last of two columns of one name wins. */
function objectOf(fields: pg.FieldDef[], values: unknown[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < fields.length; i++) row[fields[i].name] = values[i];
  return row;
}

/** A pooled client, for Kysely, whose every query goes through queryObjects. */
export function withNamedStatements(client: pg.PoolClient): PostgresPoolClient {
  return {
    release: (error?: Error | boolean) => client.release(error),
    query: ((text: string, values: unknown[]) =>
      queryObjects(client, text, values ?? [])) as unknown as PostgresPoolClient['query'],
    // Kysely types the client's query as a set of overloads; this covers the one it calls.
  };
}
