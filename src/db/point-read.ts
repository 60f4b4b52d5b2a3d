import type { Kysely, RawBuilder } from 'kysely';
import { type BatchedReads, engineOf } from './engine/engine.js';
import type { Executor } from './engine/executor.js';
import { prepareQuery } from './prepared-query.js';
import type { DatabaseSchema } from './schema.js';

export interface PointReadOptions {
  /**
   * The caller will write the row in its transaction: where the engine locks
   * rows, the row is locked, so that concurrent writers that check it
   * (capacity, status, If-Match) take turns; elsewhere writers are serial
   * already (Engine.locksRows).
   */
  lock?: boolean;
}

/**
 * The read of one row by its integer key within a facility, as every hot
 * point read is done: outside a transaction gathered into batches where the
 * engine batches reads (Engine.batchedReads); otherwise one prepared
 * statement (prepareQuery), with a row lock when the caller will write the
 * row. A row of another facility is not found.
 */
export function pointRead<R extends { facility_id: number }>(spec: {
  table: keyof DatabaseSchema & ('plans' | 'members' | 'policies');
  /** The columns read, in the order of the resource's representation; every column when omitted. */
  columns?: readonly (keyof R & string)[];
  /** The unique integer column read by: `id`, or `facility_id` for a row per facility. */
  key: 'id' | 'facility_id';
  /**
   * `no key update` when the write that follows changes no key column: it
   * then does not wait on the KEY SHARE locks that foreign key checks take.
   */
  lockMode: 'update' | 'no key update';
}): (db: Executor, facilityId: number, key: number, options?: PointReadOptions) => Promise<R | undefined> {
  // The table and columns are chosen by the repository; typing them through Kysely's generics adds nothing here.
  // biome-ignore lint/suspicious/noExplicitAny: see above
  const from = (db: Kysely<any>) => {
    const table = db.selectFrom(spec.table);
    return spec.columns === undefined ? table.selectAll() : table.select(spec.columns);
  };
  type Key = { key: number; facilityId: number };
  const byKey = (db: Kysely<DatabaseSchema>, param: <K extends keyof Key>(name: K) => Key[K]) =>
    from(db).where(spec.key, '=', param('key')).where('facility_id', '=', param('facilityId'));
  const select = prepareQuery<Key, R>(byKey);
  const selectLocked = prepareQuery<Key, R>((db, param) =>
    spec.lockMode === 'update' ? byKey(db, param).forUpdate() : byKey(db, param).forNoKeyUpdate(),
  );
  type Read = (db: Executor, facilityId: number, key: number) => Promise<R | undefined>;
  const batchedReaders = new WeakMap<BatchedReads, Read>();
  const readInBatch = (batched: BatchedReads) => {
    let reader = batchedReaders.get(batched);
    if (reader === undefined) {
      reader = batched.reader<R>(
        (db, anyKey: RawBuilder<number>) => from(db).where(spec.key, '=', anyKey),
        (row) => row[spec.key as keyof R] as number,
      );
      batchedReaders.set(batched, reader);
    }
    return reader;
  };
  return async (db, facilityId, key, options = {}) => {
    const engine = engineOf(db);
    if (options.lock !== true && !db.isTransaction && engine.batchedReads !== undefined)
      return readInBatch(engine.batchedReads)(db, facilityId, key);
    const query = options.lock === true && engine.locksRows ? selectLocked : select;
    const [row] = await query(db, { key, facilityId });
    return row;
  };
}
