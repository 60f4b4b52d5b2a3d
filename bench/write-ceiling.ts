/**
 * What a member create costs PostgreSQL and the node process at the level
 * of the driver alone, with no HTTP, validation or service code: the bare
 * INSERT that the benchmark's floor makes, the statements a create of the
 * service makes today (its transaction: begin, the policy, the member, the
 * audit entry with the event and the facility's webhook endpoints, commit;
 * the member written by the floor's INSERT, whose columns the service's
 * leaves null but for these),
 * and the one statement a create could be at best (the member, its audit
 * entry and its event in one statement, autocommitted). 32 creates in flight
 * on a pool of 10, as the benchmark drives the service; interleaved rounds;
 * CPU a create of this process and of the PostgreSQL server.
 *
 *   npm exec -- tsx bench/write-ceiling.ts [rounds] [seconds]
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { openDatabase } from '../src/db/database.js';
import { createTestDatabase } from '../test/harness.js';
import { createAsTheService } from './create-statements.js';
import { seed } from './seed.js';

const rounds = Number(process.argv[2] ?? 3);
const seconds = Number(process.argv[3] ?? 4);
const test = await createTestDatabase('postgres');
const database = openDatabase(test.url);
const seeded = await seed(database, 1000);
await database.close();
const pool = new pg.Pool({ connectionString: test.url, max: 10 });
// Dropping the database at the end ends its connections from the server's side.
pool.on('error', () => {});
const facilities = seeded.smallFacilities;

const COLUMNS =
  'facility_id, first_name, last_name, role, status, joined_on, status_changed_at, created_at, updated_at';
const MEMBER_JSON = (name: string, now: string) =>
  JSON.stringify({
    id: 0,
    facility_id: 2,
    first_name: 'Bench',
    last_name: name,
    email: null,
    phone: null,
    date_of_birth: null,
    sport_id: null,
    role: 'member',
    status: 'active',
    status_reason: null,
    plan_id: null,
    joined_on: now.slice(0, 10),
    ends_on: null,
    notes: null,
    waiver_signed_at: null,
    external_id: null,
    status_changed_at: now,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  });

type Values = { facility: number; name: string; now: string };
const memberValues = ({ facility, name, now }: Values) => [
  facility,
  'Bench',
  name,
  now.slice(0, 10),
  now,
  now,
  now,
];
const INSERT = `insert into members (${COLUMNS}) values ($1, $2, $3, 'member', 'active', $4, $5, $6, $7) returning *`;
const ONE_STATEMENT = `with member as (${INSERT}), audit as (insert into audit_events (facility_id, resource_type,
  resource_id, action, api_key_id, api_key_name, changes, request_id, occurred_at)
  select $1, 'member', member.id, 'create', null, 'bench', $8, 'r', $5 from member returning id),
  event as (insert into events (facility_id, type, resource, occurred_at, data)
  select $1, 'member.created', 'member', $5, $8 from member returning id)
  select member.*, event.id as event_id, webhook_endpoints.id as endpoint_id from member cross join event
  left join webhook_endpoints on webhook_endpoints.facility_id = $1 and webhook_endpoints.enabled = 1`;

const ways: Record<string, (v: Values) => Promise<unknown>> = {
  'bare INSERT (the floor)': (v) => pool.query({ name: 'insert', text: INSERT, values: memberValues(v) }),
  "the service's create: 5 round trips": (v) => createAsTheService(pool, v.facility, 'Bench', v.name),
  'one statement, autocommitted': (v) =>
    pool.query({
      name: 'one',
      text: ONE_STATEMENT,
      values: [...memberValues(v), MEMBER_JSON(v.name, v.now)],
    }),
};

const TICK_US = 1e6 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
const ticks = (pid: number) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  } catch {
    return 0;
  }
};
const postgresTicks = () =>
  execFileSync('pgrep', ['-x', 'postgres'], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map(Number)
    .reduce((s, p) => s + ticks(p), 0);

async function run(create: (v: Values) => Promise<unknown>) {
  let done = 0;
  const end = Date.now() + seconds * 1000;
  const cpu = process.cpuUsage();
  const pgTicks = postgresTicks();
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (Date.now() < end) {
        const facility = facilities[Math.floor(Math.random() * facilities.length)];
        await create({ facility, name: `Runner${Math.random()}`, now: new Date().toISOString() });
        done++;
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return {
    perSecond: done / seconds,
    node: (used.user + used.system) / done,
    postgres: ((postgresTicks() - pgTicks) * TICK_US) / done,
  };
}

for (const create of Object.values(ways)) await run(create); // warm-up
const results: Record<string, { perSecond: number; node: number; postgres: number }[]> = Object.fromEntries(
  Object.keys(ways).map((name) => [name, []]),
);
for (let round = 0; round < rounds; round++)
  for (const [name, create] of Object.entries(ways)) results[name].push(await run(create));
const floor = results['bare INSERT (the floor)'];
console.log(
  '| way | creates/s | × the bare INSERT | node µs a create | PostgreSQL µs a create |\n|---|---:|---:|---:|---:|',
);
for (const [name, rows] of Object.entries(results)) {
  const ratios = rows.map((row, i) => row.perSecond / floor[i].perSecond).sort((a, b) => a - b);
  const median = [...rows].sort((a, b) => a.perSecond - b.perSecond)[Math.floor(rows.length / 2)];
  console.log(
    `| ${name} | ${median.perSecond.toFixed(0)} | ${ratios[Math.floor(ratios.length / 2)].toFixed(2)} | ${median.node.toFixed(0)} | ${median.postgres.toFixed(0)} |`,
  );
}
await pool.end();
await test.drop();
