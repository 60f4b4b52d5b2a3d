import type { Executor } from '../../../db/database.js';

/**
 * What an import job holds besides its row: the bytes of its upload, in
 * chunks, until it ends; and, for `on_error=abort`, what undoing each row it
 * wrote needs.
 */

export async function insertChunk(db: Executor, importId: number, seq: number, bytes: Buffer): Promise<void> {
  await db.insertInto('member_import_chunks').values({ import_id: importId, seq, bytes }).execute();
}

/** The chunk of an upload at `seq`, or undefined past its end. */
export async function findChunk(db: Executor, importId: number, seq: number): Promise<Buffer | undefined> {
  const row = await db
    .selectFrom('member_import_chunks')
    .select('bytes')
    .where('import_id', '=', importId)
    .where('seq', '=', seq)
    .executeTakeFirst();
  return row?.bytes;
}

export async function deleteChunks(db: Executor, importId: number): Promise<void> {
  await db.deleteFrom('member_import_chunks').where('import_id', '=', importId).execute();
}

/** Chunks of jobs that finished (the process that finished them stopped before deleting them). */
export async function deleteChunksOfFinishedImports(db: Executor): Promise<number> {
  const result = await db
    .deleteFrom('member_import_chunks')
    .where('import_id', 'in', (eb) =>
      eb.selectFrom('member_imports').select('id').where('state', 'in', ['succeeded', 'failed']),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** What undoing the rows an `on_error=abort` import wrote needs, added with the chunk that wrote them. */
export async function insertWrites(
  db: Executor,
  writes: { import_id: number; row: number; member_id: number; before: string | null }[],
): Promise<void> {
  if (writes.length > 0) await db.insertInto('member_import_writes').values(writes).execute();
}

/** The last writes of the import (highest row first): undone from the last. */
export async function lastWrites(db: Executor, importId: number, limit: number) {
  return db
    .selectFrom('member_import_writes')
    .selectAll()
    .where('import_id', '=', importId)
    .orderBy('row', 'desc')
    .limit(limit)
    .execute();
}

export async function deleteWrites(db: Executor, importId: number, fromRow = 0): Promise<void> {
  await db
    .deleteFrom('member_import_writes')
    .where('import_id', '=', importId)
    .where('row', '>=', fromRow)
    .execute();
}
