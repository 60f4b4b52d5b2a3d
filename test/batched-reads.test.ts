/**
 * Point reads on PostgreSQL go in batches (src/db/postgres/batched-read.ts): reads that
 * arrive together share one query, and so do reads asked for while a batch's
 * query runs. SQLite reads each row at once. Queries are counted through the
 * data layer.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { type App, buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { type Database, openDatabase } from '../src/db/database.js';
import { batchReadSettings } from '../src/db/postgres/batched-read.js';
import { findMemberById } from '../src/modules/members/member.repository.js';
import { eventually } from './eventually.js';
import { createTestDatabase, DIALECTS } from './harness.js';

/** Two facilities: a batch spans both. */
const FACILITY_A = 1;
const FACILITY_B = 2;

/** The next turn of the event loop: a batch not held back has gone by then. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

for (const dialect of DIALECTS) {
  describe(`batched reads [${dialect}]`, () => {
    let app: App;
    let database: Database;
    let url: string;
    let drop: () => Promise<void>;
    let captured: { sql: string; parameters: readonly unknown[] }[] = [];
    const ids: Record<number, { plan: number; members: number[] }> = {
      [FACILITY_A]: { plan: 0, members: [] },
      [FACILITY_B]: { plan: 0, members: [] },
    };

    const send = async (method: 'GET' | 'POST', path: string, payload?: object) => {
      const response = await app.inject({ method, url: path, ...(payload ? { payload } : {}) });
      assert.ok(response.statusCode < 300, `${method} ${path}: ${response.statusCode} ${response.body}`);
      return response.json();
    };

    /**
     * Runs `test` on a database of its own whose batch reads are held back
     * behind a running one for at most `stalledAfterMs`, capturing its queries.
     */
    const withStallAfter = async (stalledAfterMs: number, test: (db: Database['db']) => Promise<void>) => {
      const previous = batchReadSettings.stalledAfterMs;
      batchReadSettings.stalledAfterMs = stalledAfterMs;
      const own = openDatabase(url, { onQuery: (sql, parameters) => captured.push({ sql, parameters }) });
      try {
        await test(own.db);
      } finally {
        batchReadSettings.stalledAfterMs = previous;
        await own.close();
      }
    };

    /** Runs `during` while another connection holds the members table locked: reads of it wait. */
    const whileMembersLocked = async (during: () => Promise<void>) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query('begin');
        await client.query('lock table members in access exclusive mode');
        await during();
      } finally {
        await client.query('commit');
        await client.end();
      }
    };

    before(async () => {
      const test = await createTestDatabase(dialect);
      ({ url, drop } = test);
      database = openDatabase(url, { onQuery: (sql, parameters) => captured.push({ sql, parameters }) });
      const config = {
        ...loadConfig({}),
        databaseUrl: url,
        authMode: 'none' as const,
        rateLimitPerMinute: 0,
      };
      app = await buildApp(config, { database, logger: false });
      for (const facility of [FACILITY_A, FACILITY_B]) {
        ids[facility].plan = (await send('POST', `/admin/facilities/${facility}/plans`, { name: 'P' })).id;
        for (let i = 0; i < 4; i++) {
          const member = await send('POST', `/admin/facilities/${facility}/members`, { first_name: `M${i}` });
          ids[facility].members.push(member.id);
        }
      }
      // Both policies exist before counting (a first read creates one).
      await send('GET', `/admin/facilities/${FACILITY_A}/policy`);
      await send('GET', `/admin/facilities/${FACILITY_B}/policy`);
    });

    after(async () => {
      await app.close();
      await database.close();
      await drop();
    });

    test('reads of one member, plan or policy that arrive together take one query each kind on PostgreSQL', async () => {
      const [ofA, ofB] = [ids[FACILITY_A], ids[FACILITY_B]];
      const reads: [path: string, status: number, id?: number][] = [
        [`/admin/facilities/${FACILITY_A}/members/${ofA.members[0]}`, 200, ofA.members[0]],
        [`/admin/facilities/${FACILITY_B}/members/${ofB.members[0]}`, 200, ofB.members[0]],
        // Read in the same query as the others, and still not found in another facility.
        [`/admin/facilities/${FACILITY_A}/members/${ofB.members[0]}`, 404],
        [`/admin/facilities/${FACILITY_A}/members/${ofA.members[0]}`, 200, ofA.members[0]],
        [`/admin/facilities/${FACILITY_A}/plans/${ofA.plan}`, 200, ofA.plan],
        [`/admin/facilities/${FACILITY_B}/plans/${ofB.plan}`, 200, ofB.plan],
        [`/admin/facilities/${FACILITY_B}/plans/${ofA.plan}`, 404],
        [`/admin/facilities/${FACILITY_A}/policy`, 200],
        [`/admin/facilities/${FACILITY_B}/policy`, 200],
      ];
      captured = [];
      const responses = await Promise.all(reads.map(([path]) => app.inject({ method: 'GET', url: path })));
      assert.deepEqual(
        responses.map((response) => response.statusCode),
        reads.map(([, status]) => status),
      );
      responses.forEach((response, i) => {
        const [path, status, id] = reads[i];
        if (id !== undefined) assert.equal(response.json().id, id, path);
        if (path.endsWith('/policy')) assert.equal(response.json().facility_id, Number(path.split('/')[3]));
        if (status === 404)
          assert.equal(
            response.json().code,
            path.includes('/members/') ? 'member_not_found' : 'plan_not_found',
          );
      });
      // A member read reads its facility's policy too (allowed_transitions), in the policies' batch.
      const memberReads = reads.filter(([path]) => path.includes('/members/')).length;
      assert.equal(
        captured.length,
        dialect === 'postgres' ? 3 : reads.length + memberReads,
        captured.map((q) => q.sql).join('\n'),
      );
    });

    test('a batch holds at most 100 reads: 101 reads that arrive together take two queries of each kind on PostgreSQL', async () => {
      const id = ids[FACILITY_B].members[0];
      captured = [];
      const responses = await Promise.all(
        Array.from({ length: 101 }, () =>
          app.inject({ method: 'GET', url: `/admin/facilities/${FACILITY_B}/members/${id}` }),
        ),
      );
      assert.ok(responses.every((response) => response.json().id === id));
      // 101 member reads and their 101 policy reads: two batches of each kind on PostgreSQL.
      assert.equal(captured.length, dialect === 'postgres' ? 4 : 202);
    });

    test('reads asked for, each in its own turn, while a query runs go together in the next query', {
      skip: dialect !== 'postgres' && 'SQLite reads each row at once',
    }, async () => {
      const [first, ...later] = ids[FACILITY_B].members;
      // A running query holds the next batch back for as long as the test takes.
      await withStallAfter(600_000, async (db) => {
        captured = [];
        const reads: Promise<unknown>[] = [];
        await whileMembersLocked(async () => {
          reads.push(findMemberById(db, FACILITY_B, first));
          await eventually('the first query', () => captured.length === 1);
          for (const id of later) {
            reads.push(findMemberById(db, FACILITY_B, id));
            await nextTurn();
          }
          assert.equal(captured.length, 1, 'the later reads wait for the running query');
        });
        const members = (await Promise.all(reads)) as { id: number }[];
        assert.deepEqual(
          members.map((member) => member.id),
          [first, ...later],
        );
        assert.equal(captured.length, 2);
        assert.deepEqual(captured[1].parameters[0], later);
      });
    });

    test('a query that has run past the stall threshold (a lock, a lost connection) no longer holds the next batch back', {
      skip: dialect !== 'postgres' && 'SQLite reads each row at once',
    }, async () => {
      const [a, b, c] = ids[FACILITY_A].members;
      await withStallAfter(50, async (db) => {
        captured = [];
        const reads: Promise<unknown>[] = [];
        await whileMembersLocked(async () => {
          reads.push(findMemberById(db, FACILITY_A, a));
          await eventually('the first query', () => captured.length === 1);
          // Both wait behind a stuck query, and each goes beside it once it has run past the threshold.
          reads.push(findMemberById(db, FACILITY_A, b));
          await eventually("b's batch beside the stuck query", () => captured.length === 2);
          reads.push(findMemberById(db, FACILITY_A, c));
          await eventually("c's batch beside the two stuck ones", () => captured.length === 3);
        });
        const members = (await Promise.all(reads)) as { id: number }[];
        assert.deepEqual(
          members.map((member) => member.id),
          [a, b, c],
        );
      });
    });
  });
}
