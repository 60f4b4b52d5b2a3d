/**
 * Point reads on PostgreSQL go in batches (src/db/batched-read.ts): reads that
 * arrive together share one query, and so do reads asked for while a batch's
 * query runs. SQLite reads each row at once. Queries are counted through the
 * data layer.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { type App, buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { type Database, openDatabase } from '../src/db/database.js';
import { findMemberById } from '../src/modules/members/member.repository.js';
import { createTestDatabase, DIALECTS } from './harness.js';

const SMALL = 1;
const LARGE = 2;

/** The next turn of the event loop: a batch not held back has gone by then. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 1) {
    if (waited > 2000) assert.fail(`waited 2 s for ${what}`);
    await sleep(1);
  }
}

for (const dialect of DIALECTS) {
  describe(`batched reads [${dialect}]`, () => {
    let app: App;
    let database: Database;
    let url: string;
    let drop: () => Promise<void>;
    let captured: { sql: string; parameters: readonly unknown[] }[] = [];
    const ids: Record<number, { plan: number; members: number[] }> = {
      [SMALL]: { plan: 0, members: [] },
      [LARGE]: { plan: 0, members: [] },
    };

    const send = async (method: 'GET' | 'POST', path: string, payload?: object) => {
      const response = await app.inject({ method, url: path, ...(payload ? { payload } : {}) });
      assert.ok(response.statusCode < 300, `${method} ${path}: ${response.statusCode} ${response.body}`);
      return response.json();
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
      for (const facility of [SMALL, LARGE]) {
        ids[facility].plan = (await send('POST', `/admin/facilities/${facility}/plans`, { name: 'P' })).id;
        for (let i = 0; i < 4; i++) {
          const member = await send('POST', `/admin/facilities/${facility}/members`, { first_name: `M${i}` });
          ids[facility].members.push(member.id);
        }
      }
      // Both policies exist before counting (a first read creates one).
      await send('GET', `/admin/facilities/${SMALL}/policy`);
      await send('GET', `/admin/facilities/${LARGE}/policy`);
    });

    after(async () => {
      await app.close();
      await database.close();
      await drop();
    });

    test('reads of one member, plan or policy that arrive together take one query each kind on PostgreSQL', async () => {
      const [small, large] = [ids[SMALL], ids[LARGE]];
      const reads: [path: string, status: number, id?: number][] = [
        [`/admin/facilities/${SMALL}/members/${small.members[0]}`, 200, small.members[0]],
        [`/admin/facilities/${LARGE}/members/${large.members[0]}`, 200, large.members[0]],
        // Read in the same query as the others, and still not found in another facility.
        [`/admin/facilities/${SMALL}/members/${large.members[0]}`, 404],
        [`/admin/facilities/${SMALL}/members/${small.members[0]}`, 200, small.members[0]],
        [`/admin/facilities/${SMALL}/plans/${small.plan}`, 200, small.plan],
        [`/admin/facilities/${LARGE}/plans/${large.plan}`, 200, large.plan],
        [`/admin/facilities/${LARGE}/plans/${small.plan}`, 404],
        [`/admin/facilities/${SMALL}/policy`, 200],
        [`/admin/facilities/${LARGE}/policy`, 200],
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
      assert.equal(
        captured.length,
        dialect === 'postgres' ? 3 : reads.length,
        captured.map((q) => q.sql).join('\n'),
      );
    });

    test('a batch holds at most 100 reads: 101 reads that arrive together take two queries on PostgreSQL', async () => {
      const id = ids[LARGE].members[0];
      captured = [];
      const responses = await Promise.all(
        Array.from({ length: 101 }, () =>
          app.inject({ method: 'GET', url: `/admin/facilities/${LARGE}/members/${id}` }),
        ),
      );
      assert.ok(responses.every((response) => response.json().id === id));
      assert.equal(captured.length, dialect === 'postgres' ? 2 : 101);
    });

    test('reads asked for, each in its own turn, while a query runs go together in the next query', {
      skip: dialect !== 'postgres' && 'SQLite reads each row at once',
    }, async () => {
      const [first, ...later] = ids[LARGE].members;
      captured = [];
      const reads: Promise<unknown>[] = [];
      await whileMembersLocked(async () => {
        reads.push(findMemberById(database.db, LARGE, first));
        await until(() => captured.length === 1, 'the first query');
        for (const id of later) {
          reads.push(findMemberById(database.db, LARGE, id));
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

    test('a query that has run 100 ms (a lock, a lost connection) no longer holds the next batch back', {
      skip: dialect !== 'postgres' && 'SQLite reads each row at once',
    }, async () => {
      const [a, b, c] = ids[SMALL].members;
      captured = [];
      const reads: Promise<unknown>[] = [];
      await whileMembersLocked(async () => {
        reads.push(findMemberById(database.db, SMALL, a));
        await until(() => captured.length === 1, 'the first query');
        // b waits, then goes beside the stuck query; c, asked for after that query has run 100 ms, goes at once.
        reads.push(findMemberById(database.db, SMALL, b));
        await nextTurn();
        assert.equal(captured.length, 1);
        await until(() => captured.length === 2, 'the waiting batch to go');
        await sleep(150);
        reads.push(findMemberById(database.db, SMALL, c));
        await nextTurn();
        assert.equal(captured.length, 3);
      });
      const members = (await Promise.all(reads)) as { id: number }[];
      assert.deepEqual(
        members.map((member) => member.id),
        [a, b, c],
      );
    });
  });
}
