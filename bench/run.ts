/**
 * npm run bench -- [--db sqlite|postgres|both] [--members 1000000] [--duration 5] [--connections 32]
 *                  [--workers 2] [--rounds 3]
 *
 * Seeds a dataset, starts the service as a user runs it (built, default
 * logging, access control and rate limiting on, a database API key), drives it
 * over loopback and prints requests/s, p50, p99, errors and peak RSS per
 * scenario, with each read's ratio to a bare floor measured in the same run.
 *
 * These machines are shared and a figure moves by a quarter between runs. The
 * floor, GET one member with one process and GET one member with WORKERS
 * processes are therefore measured in interleaved rounds (all three processes
 * run side by side, idle but for the one being measured) and each is the
 * median of its rounds: a slow patch falls on all three alike.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/db/database.js';
import { createApiKey } from '../src/modules/api-keys/api-key.service.js';
import { createTestDatabase } from '../test/harness.js';
import { type LoadResult, loadGenerator, runLoad } from './load.js';
import { peakRssMb, type Running, startFloor, startService, stop } from './processes.js';
import { FLOOR, GET_MEMBER, SCENARIOS, type Scenario } from './scenarios.js';
import { type Seeded, seed } from './seed.js';

const { values: options } = parseArgs({
  options: {
    db: { type: 'string', default: 'both' },
    members: { type: 'string', default: '1000000' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '32' },
    workers: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '3' },
  },
});
const DURATION = Number(options.duration);
const CONNECTIONS = Number(options.connections);
const WORKERS = Number(options.workers);
const ROUNDS = Number(options.rounds);
/** Seconds of unmeasured load before each measurement (JIT, caches, the database's buffers). */
const WARMUP = 2;
const PLANNED = 20_000;

interface Row extends LoadResult {
  scenario: string;
  /** Requests/s over the floor's median. */
  ratio?: number;
}

async function measure(target: Running, scenario: Scenario, seeded: Seeded, headers: Record<string, string>) {
  const requests = Array.from({ length: PLANNED }, () => scenario.plan(seeded));
  return runLoad({
    url: target.url,
    requests,
    headers,
    connections: CONNECTIONS,
    duration: DURATION,
    warmup: WARMUP,
    chain: scenario.chain,
  });
}

/** The round whose requests/s is the median of the rounds. */
function median(results: LoadResult[]): LoadResult {
  return [...results].sort((a, b) => a.rps - b.rps)[Math.floor(results.length / 2)];
}

async function benchDialect(dialect: 'sqlite' | 'postgres', members: number): Promise<void> {
  const test = dialect === 'sqlite' ? undefined : await createTestDatabase('postgres');
  const file = `/tmp/facility-admin-bench-${process.pid}.db`;
  const url = test?.url ?? `sqlite:${file}`;
  const log = `/tmp/facility-admin-bench-${process.pid}.log`;
  const running: Running[] = [];
  try {
    const database = openDatabase(url);
    const started = Date.now();
    const seeded = await seed(database, members);
    const { secret } = await createApiKey(database.db, { name: 'bench', role: 'admin', facilityIds: 'all' });
    await database.close();
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `\n## ${dialect}: ${members.toLocaleString()} members in the large facility, +${seeded.smallFacilities.length} facilities of 1,000 (seeded in ${seconds} s)`,
    );
    const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };

    const floor = await startFloor(url, 3901, log);
    running.push(floor);
    const single = await startService(url, 3902, 1, log);
    running.push(single);
    const multi = await startService(url, 3903, WORKERS, log);
    running.push(multi);

    const rounds = { floor: [] as LoadResult[], single: [] as LoadResult[], multi: [] as LoadResult[] };
    for (let round = 0; round < ROUNDS; round++) {
      rounds.floor.push(await measure(floor, FLOOR, seeded, {}));
      rounds.single.push(await measure(single, GET_MEMBER, seeded, headers));
      rounds.multi.push(await measure(multi, GET_MEMBER, seeded, headers));
    }
    const floorRps = median(rounds.floor).rps;
    const singleMember = median(rounds.single);
    const multiMember = median(rounds.multi);
    const rows: Row[] = [
      {
        ...median(rounds.floor),
        scenario: `floor: bare Fastify route, same row by key (median of ${ROUNDS})`,
      },
      {
        ...singleMember,
        scenario: `GET one member (median of ${ROUNDS})`,
        ratio: singleMember.rps / floorRps,
      },
    ];
    for (const scenario of SCENARIOS.filter((s) => s !== GET_MEMBER)) {
      const result = await measure(single, scenario, seeded, headers);
      rows.push({
        ...result,
        scenario: scenario.name,
        ratio: scenario.read ? result.rps / floorRps : undefined,
      });
    }
    rows.push({
      ...multiMember,
      scenario: `GET one member, WORKERS=${WORKERS} (median of ${ROUNDS})`,
      ratio: multiMember.rps / floorRps,
    });

    printTable(rows);
    const perRound = (results: LoadResult[]) => results.map((r) => Math.round(r.rps)).join(', ');
    console.log(
      `\nrounds, req/s: floor ${perRound(rounds.floor)}; GET one member ${perRound(rounds.single)}; with WORKERS=${WORKERS} ${perRound(rounds.multi)}`,
    );
    console.log(
      `peak RSS: ${peakRssMb(single).toFixed(0)} MB with one process; ${peakRssMb(multi).toFixed(0)} MB, the largest of ${WORKERS} workers`,
    );
    console.log(
      `WORKERS=${WORKERS} vs 1, GET one member: ${(multiMember.rps / singleMember.rps).toFixed(2)} ×`,
    );
    const deep = rows.find((r) => r.scenario === 'list 100 members, any page') as Row;
    const small = rows.find((r) => r.scenario === 'list 100 members, any page, 1,000-member facility') as Row;
    console.log(
      `a page of 100 at ${members.toLocaleString()} members costs ${(small.rps / deep.rps).toFixed(2)} × the page at 1,000 (by req/s; p50 ${deep.p50} vs ${small.p50} ms)`,
    );
  } finally {
    for (const process of running) await stop(process);
    await test?.drop();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    rmSync(log, { force: true });
  }
}

function printTable(rows: Row[]): void {
  console.log('\n| scenario | req/s | p50 ms | p99 ms | errors | × floor |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const row of rows) {
    const ratio = row.ratio === undefined ? '' : row.ratio.toFixed(2);
    console.log(
      `| ${row.scenario} | ${Math.round(row.rps)} | ${row.p50} | ${row.p99} | ${row.errors} | ${ratio} |`,
    );
  }
}

execFileSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
const dialects =
  options.db === 'both' ? (['sqlite', 'postgres'] as const) : [options.db as 'sqlite' | 'postgres'];
console.log(
  `facility-admin benchmark: ${DURATION} s per scenario, ${CONNECTIONS} connections, load generator ${loadGenerator}` +
    `${loadGenerator === 'autocannon' ? ' (install wrk for figures less skewed by the load generator)' : ''}, ` +
    `node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}`,
);
for (const dialect of dialects) await benchDialect(dialect, Number(options.members));
