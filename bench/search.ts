/**
 * Focused measurement of `q` on a database seeded as the benchmark seeds it,
 * through the app in this process (no sockets, no load generator): the CPU
 * time of a search for one member's email, and for a member's full name
 * (two words, issue 42), against a read of one member by id, and of a
 * create with SQLite's search index kept (migration 0041) against one
 * without it (its triggers dropped for the round), in
 * interleaved rounds. Prints ratios, which a busy shared machine moves less
 * than absolute figures.
 *
 *   npm exec -- tsx bench/search.ts [members] [sqlite|postgres]
 */
import { rmSync } from 'node:fs';
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { createTestDatabase } from '../test/harness.js';
import { LARGE_FACILITY, seed, seededEmail } from './seed.js';

const members = Number(process.argv[2] ?? 100_000);
const dialect = (process.argv[3] ?? 'sqlite') as 'sqlite' | 'postgres';
const file = `/tmp/bench-search-${members}-${process.pid}.db`;
for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
const test = dialect === 'postgres' ? await createTestDatabase('postgres') : undefined;
const url = test?.url ?? `sqlite:${file}`;
const database = openDatabase(url);
const seeded = await seed(database, members, 1);
const app = await buildApp(
  { ...loadConfig({ RATE_LIMIT_PER_MINUTE: '10000000' }), databaseUrl: url, authMode: 'none' },
  { database, logger: false },
);
const [first, last] = seeded.memberIdRange;
const base = `/admin/facilities/${LARGE_FACILITY}/members`;
/** Creates in flight at once: 32, as the benchmark's connections; CREATORS=1 for a transaction each. */
const CREATORS = Number(process.env.CREATORS ?? 32);
const randomId = () => first + Math.floor(Math.random() * (last - first + 1));

/** `count` requests, `concurrency` at a time (creates then commit in groups, as under load). */
async function measure(count: number, request: () => Promise<number>, concurrency = 1) {
  const times: number[] = [];
  const cpu = process.cpuUsage();
  let sent = 0;
  const worker = async () => {
    while (sent < count) {
      sent++;
      const start = performance.now();
      const status = await request();
      if (status >= 300) throw new Error(`status ${status}`);
      times.push(performance.now() - start);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const used = process.cpuUsage(cpu);
  times.sort((a, b) => a - b);
  return { cpuUs: (used.user + used.system) / count, medianMs: times[Math.floor(count / 2)] };
}

const getById = () => app.inject({ method: 'GET', url: `${base}/${randomId()}` }).then((r) => r.statusCode);
const searchEmail = () =>
  app
    .inject({
      method: 'GET',
      url: `${base}?q=${encodeURIComponent(seededEmail(LARGE_FACILITY, randomId() - first + 1))}`,
    })
    .then((r) => r.statusCode);
/** A full name typed as a front desk does (issue 42): two words, in the other order, in lower case. */
const searchName = () => {
  const i = randomId() - first + 1;
  return app
    .inject({ method: 'GET', url: `${base}?q=${encodeURIComponent(`surname${i % 5000} member${i}`)}` })
    .then((r) => r.statusCode);
};
let created = 0;
const create = () =>
  app
    .inject({
      method: 'POST',
      url: base,
      payload: {
        first_name: `Created${++created}`,
        last_name: `Family${created % 7919}`,
        email: `c${created}@example.org`,
      },
    })
    .then((r) => r.statusCode);

const triggers =
  dialect === 'sqlite'
    ? await sql<{
        name: string;
        sql: string;
      }>`select name, sql from sqlite_master where type = 'trigger' and name like 'member_search_%'`
        .execute(database.db)
        .then((r) => r.rows)
    : [];
const withoutIndex = async <T>(run: () => Promise<T>) => {
  for (const { name } of triggers) await sql.raw(`drop trigger ${name}`).execute(database.db);
  try {
    return await run();
  } finally {
    for (const trigger of triggers) await sql.raw(trigger.sql).execute(database.db);
  }
};

// FTS5's own settings, to compare (FTS_SETTINGS=automerge=16,crisismerge=32).
for (const setting of (process.env.FTS_SETTINGS ?? '').split(',').filter(Boolean)) {
  const [name, value] = setting.split('=');
  await sql
    .raw(`insert into member_search (member_search, rank) values ('${name}', ${Number(value)})`)
    .execute(database.db);
}
await measure(500, getById);
await measure(50, searchEmail);
await measure(300, create, CREATORS);
for (let round = 1; round <= 3; round++) {
  const get = await measure(2000, getById);
  const search = await measure(200, searchEmail);
  const name = await measure(200, searchName);
  const creates = await measure(2000, create, CREATORS);
  const bare = triggers.length === 0 ? undefined : await withoutIndex(() => measure(2000, create, CREATORS));
  console.log(
    `round ${round}, ${members} members, ${dialect}: GET ${get.cpuUs.toFixed(0)} µs CPU (median ${get.medianMs.toFixed(3)} ms); ` +
      `q email ${search.cpuUs.toFixed(0)} µs CPU (median ${search.medianMs.toFixed(3)} ms) = ${(search.cpuUs / get.cpuUs).toFixed(1)} × GET; ` +
      `q name ${name.cpuUs.toFixed(0)} µs CPU (median ${name.medianMs.toFixed(3)} ms) = ${(name.cpuUs / get.cpuUs).toFixed(1)} × GET; ` +
      `create ${creates.cpuUs.toFixed(0)} µs CPU` +
      (bare === undefined
        ? ''
        : `, without the index ${bare.cpuUs.toFixed(0)} µs: ${(bare.cpuUs / creates.cpuUs).toFixed(2)} × the creates/s`),
  );
}
await app.close();
await database.close();
await test?.drop();
