/**
 * npm run bench -- [--db sqlite|postgres|both] [--members 1000000] [--duration 5] [--connections 32]
 *
 * Seeds a dataset, starts the service as a user runs it (built, default
 * logging, access control and rate limiting on), drives it over loopback
 * with autocannon, and prints requests/s, p50, p99, errors and peak RSS per
 * scenario, with each read's ratio to a bare floor measured in the same run.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { openDatabase } from '../src/db/database.js';
import { createTestDatabase } from '../test/harness.js';
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
const KEY = 'bench-admin-key-0123456789abcdef';
const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const rand = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));
const cursorAfter = (id: number) => Buffer.from(`id:${id}`).toString('base64url');

interface Row {
  scenario: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  ratio?: number;
}

interface Scenario {
  name: string;
  read: boolean;
  request: (s: Seeded) => autocannon.Request[];
}

type Walk = { cursor?: string };
const member = (s: Seeded) => rand(...s.memberIdRange);
const plan = (s: Seeded) => rand(...s.planIdRange);
const F = `/admin/facilities/${LARGE_FACILITY}`;

const SCENARIOS: Scenario[] = [
  {
    name: 'GET one member',
    read: true,
    request: (s) => [{ setupRequest: (r) => ({ ...r, path: `${F}/members/${member(s)}` }) }],
  },
  {
    name: 'GET one plan',
    read: true,
    request: (s) => [{ setupRequest: (r) => ({ ...r, path: `${F}/plans/${plan(s)}` }) }],
  },
  {
    name: 'list 100 members, any page',
    read: true,
    request: (s) => [
      { setupRequest: (r) => ({ ...r, path: `${F}/members?cursor=${cursorAfter(member(s) - 100)}` }) },
    ],
  },
  {
    name: 'list 100 members, small facility',
    read: true,
    request: (s) => [
      { setupRequest: (r) => ({ ...r, path: `/admin/facilities/${s.smallFacilities[0]}/members` }) },
    ],
  },
  {
    name: 'list 100, status+role filter',
    read: true,
    request: (s) => [
      {
        setupRequest: (r) => ({
          ...r,
          path: `${F}/members?status=active,frozen&role=member&cursor=${cursorAfter(member(s) - 1000)}`,
        }),
      },
    ],
  },
  {
    name: 'list 100, q search',
    read: true,
    request: (s) => [
      {
        setupRequest: (r) => ({
          ...r,
          path: `${F}/members?q=surname1&cursor=${cursorAfter(member(s) - 1000)}`,
        }),
      },
    ],
  },
  {
    name: 'walk 10 pages (per page)',
    read: true,
    request: (s) => {
      const pages: autocannon.Request[] = [];
      for (let i = 0; i < 10; i++) {
        pages.push({
          setupRequest: (r, context) => ({
            ...r,
            path: `${F}/members?cursor=${i === 0 ? cursorAfter(member(s) - 2000) : (context as Walk).cursor}`,
          }),
          onResponse: (_status, body, context) => {
            (context as Walk).cursor = JSON.parse(body).next_cursor;
          },
        });
      }
      return pages;
    },
  },
  { name: 'GET policy', read: true, request: () => [{ path: `${F}/policy` }] },
  {
    name: 'POST member',
    read: false,
    request: (s) => [
      {
        method: 'POST',
        setupRequest: (r) => ({
          ...r,
          path: `/admin/facilities/${s.smallFacilities[(1 + Math.random() * (s.smallFacilities.length - 1)) | 0]}/members`,
          body: JSON.stringify({ first_name: 'Bench', last_name: `Runner ${Math.random()}`, role: 'member' }),
        }),
      },
    ],
  },
  {
    name: 'PATCH member',
    read: false,
    request: (s) => [
      {
        method: 'PATCH',
        setupRequest: (r) => ({
          ...r,
          path: `${F}/members/${member(s)}`,
          body: JSON.stringify({ notes: `n${Math.random()}` }),
        }),
      },
    ],
  },
  {
    name: 'PUT entitlement',
    read: false,
    request: (s) => [
      {
        method: 'PUT',
        setupRequest: (r) => ({
          ...r,
          path: `${F}/plans/${plan(s)}/entitlements/bench_${rand(1, 20)}`,
          body: JSON.stringify({ value: rand(1, 100) }),
        }),
      },
    ],
  },
];

async function load(
  url: string,
  requests: autocannon.Request[],
  headers: Record<string, string>,
): Promise<Row & { non2xx: number }> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers, requests });
  return {
    scenario: '',
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
    non2xx: result.non2xx,
  };
}

function start(command: string, args: string[], env: Record<string, string>): ChildProcess {
  return spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
}

async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {}
    await sleep(100);
  }
  throw new Error(`${url} did not come up`);
}

/** Peak resident memory (VmHWM) of a process and its children, in MB, the largest one. */
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

async function benchDialect(dialect: 'sqlite' | 'postgres', members: number): Promise<void> {
  const test = dialect === 'sqlite' ? undefined : await createTestDatabase('postgres');
  const file = `/tmp/facility-admin-bench-${process.pid}.db`;
  const url = test?.url ?? `sqlite:${file}`;
  try {
    const database = openDatabase(url);
    const started = Date.now();
    const seeded = await seed(database, members);
    await database.close();
    console.log(
      `\n## ${dialect}: seeded ${members.toLocaleString()} members in the large facility (+${seeded.smallFacilities.length} × 1,000) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );

    const floor = start('node', ['--import', 'tsx', 'bench/floor.ts', url, '3901'], {});
    await waitFor('http://127.0.0.1:3901/members/1');
    const floorRow = await load(
      'http://127.0.0.1:3901',
      [{ setupRequest: (r) => ({ ...r, path: `/members/${rand(...seeded.memberIdRange)}` }) }],
      {},
    );
    await stop(floor);

    const rows: Row[] = [{ ...floorRow, scenario: 'floor: bare route, same row read' }];
    let peak = 0;
    const env = {
      DATABASE_URL: url,
      PORT: '3902',
      ADMIN_API_KEY: KEY,
      RATE_LIMIT_PER_MINUTE: '10000000',
      NODE_ENV: 'production',
    };
    const service = start('node', ['dist/cli.js', 'serve'], { ...env, WORKERS: '1' });
    service.stdout?.resume();
    await waitFor('http://127.0.0.1:3902/readyz');
    for (const scenario of SCENARIOS) {
      const row = await load('http://127.0.0.1:3902', scenario.request(seeded), auth);
      rows.push({
        ...row,
        scenario: scenario.name,
        ratio: scenario.read ? row.rps / floorRow.rps : undefined,
      });
    }
    peak = peakRssMb(service.pid as number);
    await stop(service);

    const workers = Number(options.workers);
    const multi = start('node', ['dist/cli.js', 'serve'], { ...env, WORKERS: String(workers) });
    multi.stdout?.resume();
    await waitFor('http://127.0.0.1:3902/readyz');
    await sleep(1000);
    const multiRow = await load('http://127.0.0.1:3902', SCENARIOS[0].request(seeded), auth);
    const multiPeak = peakRssMb(multi.pid as number);
    await stop(multi);
    rows.push({
      ...multiRow,
      scenario: `GET one member, WORKERS=${workers}`,
      ratio: multiRow.rps / floorRow.rps,
    });

    printTable(rows);
    const single = rows.find((r) => r.scenario === 'GET one member') as Row;
    const deep = rows.find((r) => r.scenario === 'list 100 members, any page') as Row;
    const small = rows.find((r) => r.scenario === 'list 100 members, small facility') as Row;
    console.log(
      `\npeak RSS: ${peak.toFixed(0)} MB (1 worker), ${multiPeak.toFixed(0)} MB per process (${workers} workers)`,
    );
    console.log(`WORKERS=${workers} vs 1, GET one member: ${(multiRow.rps / single.rps).toFixed(2)} ×`);
    console.log(
      `page of 100 at ${members.toLocaleString()} members vs 1,000 (p50 latency): ${(deep.p50 / Math.max(small.p50, 0.001)).toFixed(2)} ×, (req/s) ${(small.rps / deep.rps).toFixed(2)} ×`,
    );
  } finally {
    await test?.drop();
    rmSync(file, { force: true });
    rmSync(`${file}-wal`, { force: true });
    rmSync(`${file}-shm`, { force: true });
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
  `facility-admin benchmark: ${DURATION} s per scenario, ${CONNECTIONS} connections, node ${process.version}`,
);
for (const dialect of dialects) await benchDialect(dialect, Number(options.members));
