/**
 * Performance rules that are checked, not timed: every endpoint issues a
 * bounded number of queries that does not grow with the data, and the list
 * queries are served by an index on both databases.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CompiledQuery } from 'kysely';
import { type App, buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { type Database, openDatabase } from '../src/db/database.js';
import { asNamedStatement } from '../src/db/postgres/named-statements.js';
import { searchTextOf } from '../src/modules/members/search/member-search-text.js';
import { createTestDatabase, DIALECTS } from './harness.js';

const SMALL = 1;
const LARGE = 2;
const LARGE_MEMBERS = 20_000;
/** What a condition PostgreSQL's trigram index serves starts with (migration 0041): only a search through the index asks it. */
const INDEXED_TEXT = 'search_text like';
/** Makes every write in these tests a real change (a no-op write issues fewer queries). */
let changes = 0;

interface Captured {
  sql: string;
  parameters: readonly unknown[];
}

for (const dialect of DIALECTS) {
  describe(`queries [${dialect}]`, () => {
    let app: App;
    let database: Database;
    let drop: () => Promise<void>;
    let captured: Captured[] = [];
    const ids: Record<number, { plan: number; member: number }> = {
      [SMALL]: { plan: 0, member: 0 },
      [LARGE]: { plan: 0, member: 0 },
    };

    const send = async (method: string, url: string, body?: unknown) => {
      const response = await app.inject({
        method: method as 'GET',
        url,
        ...(body === undefined ? {} : { payload: body as object }),
      });
      assert.ok(response.statusCode < 300, `${method} ${url}: ${response.statusCode} ${response.body}`);
      return response.json();
    };

    const count = async (method: string, url: string, body?: unknown) => {
      captured = [];
      await send(method, url, body);
      return captured.length;
    };

    before(async () => {
      const test = await createTestDatabase(dialect);
      drop = test.drop;
      database = openDatabase(test.url, { onQuery: (sql, parameters) => captured.push({ sql, parameters }) });
      const config = {
        ...loadConfig({}),
        databaseUrl: test.url,
        authMode: 'none' as const,
        rateLimitPerMinute: 0,
      };
      app = await buildApp(config, { database, logger: false });
      for (const facility of [SMALL, LARGE]) {
        const plans = facility === SMALL ? 2 : 40;
        for (let i = 0; i < plans; i++) {
          const plan = await send('POST', `/admin/facilities/${facility}/plans`, {
            name: `P${i}`,
            template_id: 8,
          });
          ids[facility].plan = plan.id;
        }
        ids[facility].member = (
          await send('POST', `/admin/facilities/${facility}/members`, {
            first_name: 'A',
            plan_id: ids[facility].plan,
          })
        ).id;
      }
      const now = new Date().toISOString();
      for (let start = 0; start < LARGE_MEMBERS; start += 1000) {
        const rows = Array.from({ length: 1000 }, (_, i) => ({
          facility_id: LARGE,
          first_name: `Member${start + i}`,
          last_name: `Surname${(start + i) % 500}`,
          email: null,
          email_folded: null,
          phone: null,
          date_of_birth: null,
          sport_id: (i % 5) + 1,
          role: i % 10 === 0 ? 'coach' : 'member',
          status: i % 20 === 0 ? 'frozen' : 'active',
          plan_id: ids[LARGE].plan,
          joined_on: '2026-01-01',
          notes: null,
          status_changed_at: now,
          created_at: now,
          updated_at: now,
          deleted_at: null,
        }));
        const searched = rows.map((row) => ({
          ...row,
          search_text: searchTextOf({ ...row, external_id: null }),
        }));
        await database.db.insertInto('members').values(searched).execute();
      }
      await database.db.executeQuery(CompiledQuery.raw('analyze'));
    });

    after(async () => {
      await app.close();
      await database.close();
      await drop();
    });

    // A write also records its audit entry and its event and reads the facility's webhook endpoints: one
    // statement on PostgreSQL (with begin and commit around the write), three on SQLite (no round trips).
    const ENDPOINTS: [string, number, (f: number) => [string, string, unknown?]][] = [
      ['create plan', 5, (f) => ['POST', `/admin/facilities/${f}/plans`, { name: `New ${Math.random()}` }]],
      ['list plans', 1, (f) => ['GET', `/admin/facilities/${f}/plans?include_inactive=true`]],
      ['read plan', 1, (f) => ['GET', `/admin/facilities/${f}/plans/${ids[f].plan}`]],
      [
        'update plan',
        5,
        (f) => ['PATCH', `/admin/facilities/${f}/plans/${ids[f].plan}`, { price_amount: ++changes }],
      ],
      ['list templates', 0, () => ['GET', '/admin/plan-templates']],
      ['read entitlements', 2, (f) => ['GET', `/admin/facilities/${f}/plans/${ids[f].plan}/entitlements`]],
      [
        'replace entitlements',
        9,
        (f) => [
          'PUT',
          `/admin/facilities/${f}/plans/${ids[f].plan}/entitlements`,
          { entitlements: { a: Math.random() } },
        ],
      ],
      [
        'set entitlement',
        8,
        (f) => [
          'PUT',
          `/admin/facilities/${f}/plans/${ids[f].plan}/entitlements/k`,
          { value: Math.random() },
        ],
      ],
      ['create member', 5, (f) => ['POST', `/admin/facilities/${f}/members`, { first_name: 'B' }]],
      // A member list and read also read the policy (allowed_transitions); a read settles nothing (the
      // schedule job does), so a list is the policy, the facility's sample for `q`, and the page.
      [
        'list members',
        3,
        (f) => ['GET', `/admin/facilities/${f}/members?status=active,frozen&role=member&q=member`],
      ],
      ['read member', 2, (f) => ['GET', `/admin/facilities/${f}/members/${ids[f].member}`]],
      [
        'update member',
        6,
        (f) => ['PATCH', `/admin/facilities/${f}/members/${ids[f].member}`, { notes: `n${Math.random()}` }],
      ],
      ['read policy', 3, (f) => ['GET', `/admin/facilities/${f}/policy`]],
      [
        'update policy',
        5,
        (f) => ['PATCH', `/admin/facilities/${f}/policy`, { booking_window_days: (++changes % 365) + 1 }],
      ],
      // The facility's page, the probe of the whole service's entries (API keys for every facility) and,
      // when some fall within the page, their page.
      ['list audit events', 3, (f) => ['GET', `/admin/facilities/${f}/audit-events`]],
    ];

    for (const [name, bound, request] of ENDPOINTS) {
      test(`${name}: at most ${bound} queries, the same with ${LARGE_MEMBERS} members as with 1`, async () => {
        const small = await count(...request(SMALL));
        const large = await count(...request(LARGE));
        assert.ok(large <= bound, `${large} queries:\n${captured.map((q) => q.sql).join('\n')}`);
        assert.equal(large, small);
      });
    }

    const LISTS: [string, string][] = [
      ['members, no filter', `/admin/facilities/${LARGE}/members`],
      [
        'members, every filter',
        `/admin/facilities/${LARGE}/members?status=active&role=member&sport_id=1&q=member1`,
      ],
      [
        'members, a deep page',
        `/admin/facilities/${LARGE}/members?cursor=${Buffer.from('id:15000').toString('base64url')}`,
      ],
      ['plans', `/admin/facilities/${LARGE}/plans?include_inactive=true&sport_id=1`],
      ['audit events', `/admin/facilities/${LARGE}/audit-events?resource_type=plan`],
    ];

    /** The plan of a captured query, with sequential scans priced out on PostgreSQL. */
    async function planOf(query: Captured): Promise<string> {
      // PostgreSQL rightly prefers a sequential scan of a small table; with
      // sequential scans priced out, the plan shows whether an index can serve.
      const plan = await database.db.transaction().execute(async (trx) => {
        if (dialect === 'postgres')
          await trx.executeQuery(CompiledQuery.raw('set local enable_seqscan = off'));
        const explain = dialect === 'sqlite' ? 'explain query plan ' : 'explain ';
        return trx.executeQuery<Record<string, unknown>>(
          CompiledQuery.raw(explain + query.sql, [...query.parameters]),
        );
      });
      return plan.rows.map((row) => Object.values(row).join(' ')).join('\n');
    }

    for (const [name, url] of LISTS) {
      test(`the list of ${name} is served by an index`, async () => {
        captured = [];
        await send('GET', url);
        // planOf's own queries are captured too.
        for (const query of [...captured]) {
          const text = await planOf(query);
          if (dialect === 'sqlite') {
            assert.match(text, /USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY/, text);
            // A page's rows pass through subqueries (src/db/page-rows.ts): reading those is no table scan.
            const subqueries = new Set([...text.matchAll(/CO-ROUTINE (\S+)/g)].map((match) => match[1]));
            const tableScans = text.split('\n').filter((line) => {
              const scanned = /SCAN (\w+)$/.exec(line)?.[1];
              return scanned !== undefined && !subqueries.has(scanned);
            });
            assert.deepEqual(tableScans, [], text);
          } else {
            assert.match(text, /Index/, text);
            assert.doesNotMatch(text, /Seq Scan/, text);
          }
        }
      });
    }

    test('a search for a term rare in a large facility reads the trigram index, in at most 3 queries', async () => {
      captured = [];
      const page = await send('GET', `/admin/facilities/${LARGE}/members?q=MEMBER${LARGE_MEMBERS - 1}`);
      assert.deepEqual(
        page.members.map((member: { first_name: string }) => member.first_name),
        [`Member${LARGE_MEMBERS - 1}`],
      );
      const queries = [...captured];
      // The policy, the facility's sample, the search.
      assert.ok(queries.length <= 3, `${queries.length} queries`);
      const search = queries[queries.length - 1];
      const text = await planOf(search);
      if (dialect === 'sqlite') {
        // FTS5's index (migration 0041) finds the members; each is then read by its id.
        assert.match(text, /SCAN member_search VIRTUAL TABLE INDEX/, text);
        assert.match(text, /SEARCH members USING INTEGER PRIMARY KEY \(rowid=\?\)/, text);
        return;
      }
      assert.match(text, /members_search/, text);
      // A prepared statement would keep one generic plan for every term after five calls.
      assert.equal(asNamedStatement(search.sql, search.parameters), undefined, 'planned on every call');
    });

    for (const [facility, term] of [
      [LARGE, 'member1'],
      [SMALL, 'mem'],
    ] as const) {
      const which = facility === LARGE ? 'common in a large facility' : 'in a small facility';
      test(`a search for a term ${which} reads in order`, async () => {
        captured = [];
        await send('GET', `/admin/facilities/${facility}/members?q=${term}`);
        const search = captured[captured.length - 1];
        if (dialect === 'sqlite') {
          const text = await planOf(search);
          assert.doesNotMatch(text, /member_search/, text);
          assert.match(
            text,
            /SEARCH members USING (INTEGER PRIMARY KEY|(COVERING )?INDEX members_facility_id)/,
            text,
          );
          return;
        }
        assert.ok(!search.sql.includes(INDEXED_TEXT), `asks for the indexed text:\n${search.sql}`);
        const text = await planOf(search);
        assert.doesNotMatch(text, /members_search|Seq Scan/, text);
        assert.match(text, /Index Scan/, text);
      });
    }

    test('a search for a term that gives the index no trigram reads in order, with no sample', async () => {
      captured = [];
      await send('GET', `/admin/facilities/${LARGE}/members?q=r1`);
      // The policy and the search.
      assert.equal(captured.length, 2, captured.map((query) => query.sql).join('\n'));
    });
  });
}
