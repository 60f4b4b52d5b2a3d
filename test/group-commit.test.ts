/**
 * SQLite group commit (src/db/sqlite/driver.ts): transactions that run in one
 * turn of the event loop share one COMMIT. These are the rules that make that
 * safe, checked with a second connection to the same file, which sees only
 * what is committed. (PostgreSQL commits each transaction by itself.)
 */
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { type Database, openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { findMemberById, insertMember, type MemberValues } from '../src/modules/members/member.repository.js';
import { DIALECTS, removeSqliteFiles } from './harness.js';

const NOW = '2026-11-22T10:00:00.000Z';

function memberValues(firstName: string, email: string | null = null): MemberValues {
  return {
    first_name: firstName,
    last_name: null,
    email,
    phone: null,
    date_of_birth: null,
    sport_id: null,
    role: 'member',
    status: 'active',
    plan_id: null,
    joined_on: '2026-11-22',
    notes: null,
    external_id: null,
    status_changed_at: NOW,
    deleted_at: null,
    ends_on: null,
    status_reason: null,
    waiver_signed_at: null,
    next_change_on: null,
  };
}

function memberColumns(facilityId: number, firstName: string) {
  return {
    ...memberValues(firstName),
    facility_id: facilityId,
    email_folded: null,
    created_at: NOW,
    updated_at: NOW,
  };
}

describe('SQLite group commit', {
  skip: !DIALECTS.includes('sqlite') && 'SQLite is not among TEST_DATABASES',
}, () => {
  const file = join(tmpdir(), `facility-admin-group-commit-${process.pid}-${Date.now()}.db`);
  let database: Database;
  /** Another connection: it sees a write only once it is committed. */
  let observer: SQLite.Database;
  let facility = 0;

  const committedFirstNames = (facilityId: number) =>
    (
      observer
        .prepare('select first_name from members where facility_id = ? order by id')
        .all(facilityId) as {
        first_name: string;
      }[]
    ).map((row) => row.first_name);

  const createInTransaction = (facilityId: number, firstName: string, email: string | null = null) =>
    database.db
      .transaction()
      .execute((trx) => insertMember(trx, facilityId, memberValues(firstName, email), NOW));

  before(async () => {
    database = openDatabase(`sqlite:${file}`);
    await migrateToLatest(database.db);
    observer = new SQLite(file, { readonly: true });
  });

  after(async () => {
    observer.close();
    await database.close();
    removeSqliteFiles(file);
  });

  test('a transaction resumes only once its write is committed, also when many run together', async () => {
    const facilityId = ++facility;
    const names = Array.from({ length: 20 }, (_, i) => `Member ${i}`);
    const seenWhenAnswered = await Promise.all(
      names.map(async (name) => {
        await createInTransaction(facilityId, name);
        return committedFirstNames(facilityId).includes(name);
      }),
    );
    assert.deepEqual(
      seenWhenAnswered,
      names.map(() => true),
    );
    assert.deepEqual(committedFirstNames(facilityId), names);
  });

  test('a transaction that fails leaves the others of its turn committed', async () => {
    const facilityId = ++facility;
    const results = await Promise.allSettled([
      createInTransaction(facilityId, 'First', 'same@example.com'),
      createInTransaction(facilityId, 'Second', 'same@example.com'),
      createInTransaction(facilityId, 'Third'),
    ]);
    assert.deepEqual(
      results.map((result) => result.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.deepEqual(committedFirstNames(facilityId), ['First', 'Third']);
  });

  test('when the shared COMMIT fails, every transaction of the turn fails and none is kept', async () => {
    const facilityId = ++facility;
    const results = await Promise.allSettled([
      createInTransaction(facilityId, 'Innocent'),
      // A deferred foreign key is checked at COMMIT: this one makes the shared COMMIT fail.
      database.db.transaction().execute(async (trx) => {
        await sql`pragma defer_foreign_keys = on`.execute(trx);
        await trx.insertInto('entitlements').values({ plan_id: 987654, key: 'k', value_json: '1' }).execute();
      }),
    ]);
    assert.deepEqual(
      results.map((result) => result.status),
      ['rejected', 'rejected'],
    );
    assert.deepEqual(committedFirstNames(facilityId), []);
    // The connection is usable afterwards.
    await createInTransaction(facilityId, 'Later');
    assert.deepEqual(committedFirstNames(facilityId), ['Later']);
  });

  test('a write outside a transaction is committed when it returns, also after reads in the same turn', async () => {
    const facilityId = ++facility;
    await findMemberById(database.db, facilityId, 1);
    await database.db.insertInto('members').values(memberColumns(facilityId, 'Direct')).execute();
    assert.deepEqual(committedFirstNames(facilityId), ['Direct']);
  });

  test('reads in a later turn see what another connection committed', async () => {
    const facilityId = ++facility;
    const other = new SQLite(file);
    try {
      const before = await findMemberById(database.db, facilityId, 1);
      assert.equal(before, undefined);
      const { lastInsertRowid } = other
        .prepare(
          'insert into members (facility_id, first_name, role, status, joined_on, status_changed_at, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?)',
        )
        .run(facilityId, 'Elsewhere', 'member', 'active', '2026-11-22', NOW, NOW, NOW);
      await new Promise((resolve) => setImmediate(resolve));
      const after = await findMemberById(database.db, facilityId, Number(lastInsertRowid));
      assert.equal(after?.first_name, 'Elsewhere');
    } finally {
      other.close();
    }
  });

  /** Starts a create and resumes once its insert ran: its transaction has not committed yet. */
  async function startCreate(facilityId: number, firstName: string) {
    let inserted!: (id: number) => void;
    const insertedId = new Promise<number>((resolve) => {
      inserted = resolve;
    });
    const done = database.db.transaction().execute(async (trx) => {
      const member = await insertMember(trx, facilityId, memberValues(firstName), NOW);
      inserted(member.id);
    });
    return { id: await insertedId, done };
  }

  for (const moment of ['while the writer still holds the connection', 'once the writer let it go']) {
    test(`a read outside a transaction sees only committed data (${moment})`, async () => {
      const facilityId = ++facility;
      const writing = await startCreate(facilityId, 'Written');
      if (moment.startsWith('once')) for (let i = 0; i < 50; i++) await null;
      assert.deepEqual(committedFirstNames(facilityId), [], 'the write is not committed yet');
      const read = await findMemberById(database.db, facilityId, writing.id);
      assert.equal(read?.first_name, 'Written');
      assert.deepEqual(committedFirstNames(facilityId), ['Written']);
      await writing.done;
    });
  }
});
