/**
 * npm run bench -- [--db sqlite|postgres|both] [--members 1000000] [--duration 5] [--connections 32] [--workers 2]
 *
 * Seeds a dataset, starts the service as a user runs it (built, default
 * logging, access control and rate limiting on, a database API key), drives it
 * over loopback and prints requests/s, p50, p99, errors and peak RSS per
 * scenario, with each read's ratio to a bare floor measured in the same run.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { cpus } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/db/database.js';
import { createApiKey } from '../src/modules/api-keys/api-key.service.js';
import { createTestDatabase } from '../test/harness.js';
import { type LoadResult, loadGenerator, type PlannedRequest, runLoad } from './load.js';
import { LARGE_FACILITY, type Seeded, seed } from './seed.js';

const { values: options } = parseArgs({
  options: {
    db: { type: 'string', default: 'both' },
    members: { type: 'string', default: '1000000' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '32' },
    workers: { type: 'string', default: '2' },
  },
});
const DURATION = Number(options.duration);
const CONNECTIONS = Number(options.connections);
const PLANNED = 20_000;
const rand = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));
const cursorAfter = (id: number) => Buffer.from(`id:${Math.max(id, 0)}`).toString('base64url');
const F = `/admin/facilities/${LARGE_FACILITY}`;

interface Scenario {
  name: string;
  read: boolean;
  plan: (s: Seeded) => PlannedRequest;
  chain?: string;
}

const member = (s: Seeded) => rand(...s.memberIdRange);
const plan = (s: Seeded) => rand(...s.planIdRange);
const get = (path: string): PlannedRequest => ({ method: 'GET', path });

const SCENARIOS: Scenario[] = [
  { name: 'GET one member', read: true, plan: (s) => get(`${F}/members/${member(s)}`) },
  { name: 'GET one plan', read: true, plan: (s) => get(`${F}/plans/${plan(s)}`) },
  {
    name: 'list 100 members, any page',
    read: true,
    plan: (s) => get(`${F}/members?cursor=${cursorAfter(member(s) - 100)}`),
  },
  {
    name: 'list 100 members, any page, 1,000-member facility',
    read: true,
    plan: (s) => {
      const [first, last] = s.smallMemberIdRange;
      return get(
        `/admin/facilities/${s.smallFacilities[0]}/members?cursor=${cursorAfter(rand(first, last - 99) - 1)}`,
      );
    },
  },
  {
    name: 'list 100, status + role filter',
    read: true,
    plan: (s) => get(`${F}/members?status=active,frozen&role=member&cursor=${cursorAfter(member(s) - 1000)}`),
  },
  {
    name: 'list 100, q search',
    read: true,
    plan: (s) => get(`${F}/members?q=surname1&cursor=${cursorAfter(member(s) - 1000)}`),
  },
  {
    name: 'walk 10 pages with the cursor (per page)',
    read: true,
    plan: (s) => get(`${F}/members?cursor=${cursorAfter(member(s) - 2000)}`),
    chain: `${F}/members`,
  },
  { name: 'GET policy', read: true, plan: () => get(`${F}/policy`) },
  {
    name: 'POST member',
    read: false,
    plan: (s) => ({
      method: 'POST',
      path: `/admin/facilities/${s.smallFacilities[rand(1, s.smallFacilities.length - 1)]}/members`,
      body: JSON.stringify({ first_name: 'Bench', last_name: `Runner${rand(1, 1e9)}` }),
    }),
  },
  {
    name: 'PATCH member',
    read: false,
    plan: (s) => ({
      method: 'PATCH',
      path: `${F}/members/${member(s)}`,
      body: JSON.stringify({ notes: `n${rand(1, 1e9)}` }),
    }),
  },
  {
    name: 'PUT entitlement',
    read: false,
    plan: (s) => ({
      method: 'PUT',
      path: `${F}/plans/${plan(s)}/entitlements/bench_${rand(1, 20)}`,
      body: JSON.stringify({ value: rand(1, 1e6) }),
    }),
  },
];

interface Row extends LoadResult {
  scenario: string;
  read?: boolean;
  /** Requests/s over the faster of the two floor runs. */
  ratio?: number;
}

/** The service is started as `npm start` starts it (same node flags), without npm in between. */
const SERVICE = ['--max-semi-space-size=4', '--max-old-space-size=96', 'dist/cli.js', 'serve'];

/**
 * Processes log to a file, as under a service manager. Not to a pipe read by
 * this process: wrk runs synchronously here, so nothing would drain the pipe,
 * and a logger writing into a full pipe buffers in memory and stalls.
 */
function start(command: string, args: string[], env: Record<string, string>, log: string): ChildProcess {
  const output = openSync(log, 'a');
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', output, 'inherit'],
  });
  closeSync(output);
  return child;
}

async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {}
    await sleep(100);
  }
  throw new Error(`${url} did not come up`);
}

/** Peak resident memory (VmHWM) of a process or of its busiest child, in MB. */
function peakRssMb(pid: number): number {
  const pids = [pid];
  try {
    pids.push(
      ...execFileSync('pgrep', ['-P', String(pid)])
        .toString()
        .trim()
        .split('\n')
        .filter(Boolean)
        .map(Number),
    );
  } catch {}
  let peak = 0;
  for (const p of pids) {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      if (match) peak = Math.max(peak, Number(match[1]) / 1024);
    } catch {}
  }
  return peak;
}

async function stop(child: ChildProcess): Promise<void> {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

async function measure(url: string, scenario: Scenario, seeded: Seeded, headers: Record<string, string>) {
  const requests = Array.from({ length: PLANNED }, () => scenario.plan(seeded));
  return runLoad({
    url,
    requests,
    headers,
    connections: CONNECTIONS,
    duration: DURATION,
    chain: scenario.chain,
  });
}

async function benchDialect(dialect: 'sqlite' | 'postgres', members: number): Promise<void> {
  const test = dialect === 'sqlite' ? undefined : await createTestDatabase('postgres');
  const file = `/tmp/facility-admin-bench-${process.pid}.db`;
  const url = test?.url ?? `sqlite:${file}`;
  const log = `/tmp/facility-admin-bench-${process.pid}.log`;
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

    // The floor runs first and again after the service: the database's
    // caches are warmer the second time, and ratios use the faster floor.
    const measureFloor = async () => {
      const floor = start('node', ['--import', 'tsx', 'bench/floor.ts', url, '3901'], {}, log);
      await waitFor('http://127.0.0.1:3901/members/1');
      const floorScenario: Scenario = {
        name: 'floor',
        read: true,
        plan: (s) => get(`/members/${member(s)}`),
      };
      const result = await measure('http://127.0.0.1:3901', floorScenario, seeded, {});
      await stop(floor);
      return result;
    };
    const firstFloor = await measureFloor();

    const env = { DATABASE_URL: url, PORT: '3902', RATE_LIMIT_PER_MINUTE: '10000000' };
    const service = start('node', SERVICE, { ...env, WORKERS: '1' }, log);
    await waitFor('http://127.0.0.1:3902/readyz');
    const serviceRows: Row[] = [];
    for (const scenario of SCENARIOS) {
      const result = await measure('http://127.0.0.1:3902', scenario, seeded, headers);
      serviceRows.push({ ...result, scenario: scenario.name, read: scenario.read });
    }
    const peak = peakRssMb(service.pid as number);
    await stop(service);
    const lastFloor = await measureFloor();
    const floorRps = Math.max(firstFloor.rps, lastFloor.rps);
    const rows: Row[] = [
      { ...firstFloor, scenario: 'floor: bare Fastify route, same row by key (first)' },
      { ...lastFloor, scenario: 'floor: the same, after the service (last)' },
      ...serviceRows.map((row) => ({ ...row, ratio: row.read ? row.rps / floorRps : undefined })),
    ];

    const workers = Number(options.workers);
    const multi = start('node', SERVICE, { ...env, WORKERS: String(workers) }, log);
    await waitFor('http://127.0.0.1:3902/readyz');
    await sleep(1500);
    const multiResult = await measure('http://127.0.0.1:3902', SCENARIOS[0], seeded, headers);
    const multiPeak = peakRssMb(multi.pid as number);
    await stop(multi);
    rows.push({
      ...multiResult,
      scenario: `GET one member, WORKERS=${workers}`,
      ratio: multiResult.rps / floorRps,
    });

    printTable(rows);
    const single = rows.find((r) => r.scenario === SCENARIOS[0].name) as Row;
    const deep = rows.find((r) => r.scenario === 'list 100 members, any page') as Row;
    const small = rows.find((r) => r.scenario === 'list 100 members, any page, 1,000-member facility') as Row;
    console.log(
      `\npeak RSS: ${peak.toFixed(0)} MB with one process; ${multiPeak.toFixed(0)} MB, the largest of ${workers} workers`,
    );
    console.log(`WORKERS=${workers} vs 1, GET one member: ${(multiResult.rps / single.rps).toFixed(2)} ×`);
    console.log(
      `a page of 100 at ${members.toLocaleString()} members costs ${(small.rps / deep.rps).toFixed(2)} × the page at 1,000 (by req/s; p50 ${deep.p50} vs ${small.p50} ms)`,
    );
  } finally {
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
