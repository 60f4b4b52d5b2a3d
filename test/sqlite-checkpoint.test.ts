/**
 * SQLite WAL checkpoints from a background thread (src/db/sqlite/checkpointer.ts):
 * the serving connection only appends to the WAL, and committed pages still
 * reach the database file within moments. The database file's size shows
 * it: pages are copied into it only by a checkpoint.
 */
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { sql } from 'kysely';
import { type Database, openDatabase } from '../src/db/database.js';
import { eventually } from './eventually.js';
import { DIALECTS, removeSqliteFiles } from './harness.js';

const files: string[] = [];

function databaseFile(name: string): string {
  const file = join(tmpdir(), `facility-admin-checkpoint-${name}-${process.pid}.db`);
  files.push(file);
  return file;
}

/** About 2 MB of rows in 20 transactions: 500 pages, below SQLite's own 1,000-page checkpoint. */
async function writeTwoMegabytes(database: Database): Promise<void> {
  await sql`create table filler (id integer primary key, text text not null)`.execute(database.db);
  for (let batch = 0; batch < 20; batch++) {
    await database.db.transaction().execute(async (trx) => {
      for (let row = 0; row < 25; row++) {
        await sql`insert into filler (text) values (${'x'.repeat(4000)})`.execute(trx);
      }
    });
  }
}

/** Waits until the file holds at least `atLeast` bytes, and gives its size. */
async function grownTo(file: string, atLeast: number): Promise<number> {
  return eventually(
    `${file} at ${atLeast} bytes`,
    () => statSync(file).size >= atLeast && statSync(file).size,
  );
}

describe('SQLite checkpoints in the background', {
  skip: !DIALECTS.includes('sqlite') && 'SQLite is not among TEST_DATABASES',
}, () => {
  after(() => {
    for (const file of files) {
      removeSqliteFiles(file);
    }
  });

  test('committed pages reach the database file in the background, without a checkpoint by the serving connection', async () => {
    const file = databaseFile('background');
    const database = openDatabase(`sqlite:${file}`, { checkpointInBackground: true });
    try {
      await writeTwoMegabytes(database);
      assert.ok((await grownTo(file, 2_000_000)) >= 2_000_000, 'the database file holds the rows');
    } finally {
      await database.close();
    }
  });

  test('without the background thread the same writes stay in the WAL (the control for the test above)', async () => {
    const file = databaseFile('control');
    const database = openDatabase(`sqlite:${file}`);
    try {
      await writeTwoMegabytes(database);
      // Nothing else checkpoints on this connection: the rows are in the WAL, and only there.
      assert.ok(statSync(`${file}-wal`).size >= 2_000_000, 'the WAL holds the rows');
      assert.ok(statSync(file).size < 2_000_000, 'nothing was checkpointed');
    } finally {
      await database.close();
    }
  });

  test('closing the database stops the thread and leaves a database another connection reads whole', async () => {
    const file = databaseFile('close');
    const database = openDatabase(`sqlite:${file}`, { checkpointInBackground: true });
    await writeTwoMegabytes(database);
    await database.close();
    const reopened = openDatabase(`sqlite:${file}`);
    try {
      const { rows } = await sql<{ count: number }>`select count(*) as count from filler`.execute(
        reopened.db,
      );
      assert.equal(rows[0].count, 500);
    } finally {
      await reopened.close();
    }
  });
});
