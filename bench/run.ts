/**
 * npm run bench -- [--db sqlite|postgres|both] [--members 1000000] [--duration 5] [--connections 32]
 *                  [--workers 2] [--rounds 5]
 *
 * Seeds a dataset, starts the service as a user runs it (built, default
 * logging, access control and rate limiting on, a database API key), drives it
 * over loopback and prints requests/s, p50, p99, errors and CPU time per
 * request per scenario, with each read's ratio to a bare floor measured in
 * the same run, and the peak RSS.
 *
 * These machines are shared and a figure moves by a quarter between runs.
 * The figures that are compared with each other (the floor, GET one member
 * with one process and with WORKERS processes, a page in the large and in
 * the small facility), and the writes, whose targets are absolute, are
 * therefore measured in interleaved rounds (all
 * processes run side by side, idle but for the one being measured). A ratio
 * is the median of its per-round ratios, whose two figures were measured
 * seconds apart: a slow patch of the machine falls on both.
 *
 * A service runs for days; what users meet is its steady state. Before any
 * measurement every process runs its load untimed (WARMUP_PROCESS seconds)
 * and the service runs every scenario once (V8 compiles each path it takes,
 * the database caches fill), then each measurement has its own warm-up.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { cpus } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/db/database.js';
import { createApiKey } from '../src/infrastructure/api-keys/api-key.service.js';
import { createTestDatabase, removeSqliteFiles } from '../test/harness.js';
import { type LoadResult, loadGenerator, runLoad } from './load.js';
import {
  peakRssMb,
  type Running,
  residentMb,
  startFloor,
  startService,
  stop,
  takePeakRssMb,
} from './processes.js';
import { printTable, printTargets, type Row } from './report.js';
import {
  DRY_RUN_DECISION,
  FLOOR,
  FLOOR_CREATE,
  FLOOR_INSERT,
  FLOOR_PAGE,
  GET_MEMBER,
  LARGE_PAGE,
  LARGE_RARE_SEARCH,
  PATCH_MEMBER,
  POST_MEMBER,
  RECORDED_DECISION,
  SCENARIOS,
  type Scenario,
  SMALL_PAGE,
  SMALL_RARE_SEARCH,
} from './scenarios.js';
import { type Seeded, seed } from './seed.js';

const { values: options } = parseArgs({
  options: {
    db: { type: 'string', default: 'both' },
    members: { type: 'string', default: '1000000' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '32' },
    workers: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '5' },
  },
});
const DURATION = Number(options.duration);
const CONNECTIONS = Number(options.connections);
const WORKERS = Number(options.workers);
const ROUNDS = Number(options.rounds);
/** Seconds of unmeasured load before each measurement (JIT, caches, the database's buffers). */
const WARMUP = 2;
/** Seconds of unmeasured load for each process before the first measurement. */
const WARMUP_PROCESS = 5;
const PLANNED = 20_000;
/** Seconds to wait after a scenario of slow requests, for those still running to end. */
const SETTLE_SECONDS = 5;

/** DURATION seconds of a scenario, after WARMUP seconds of it untimed. */
function measure(target: Running, scenario: Scenario, seeded: Seeded, headers: Record<string, string>) {
  return load(target, scenario, seeded, headers, { duration: DURATION, warmup: WARMUP });
}

/** Load that is not measured. */
async function warmUp(
  target: Running,
  scenario: Scenario,
  seeded: Seeded,
  headers: Record<string, string>,
  seconds: number,
): Promise<void> {
  await load(target, scenario, seeded, headers, { duration: seconds, warmup: 0 });
}

async function load(
  target: Running,
  scenario: Scenario,
  seeded: Seeded,
  headers: Record<string, string>,
  time: { duration: number; warmup: number },
) {
  const requests = Array.from({ length: PLANNED }, () => scenario.plan(seeded));
  takePeakRssMb(target);
  const result = await runLoad({
    url: target.url,
    requests,
    headers,
    connections: scenario.connections ?? CONNECTIONS,
    ...time,
    chain: scenario.chain,
    cpu: target.cpu,
  });
  // Requests of seconds that the load generator left behind still run in the service and the database.
  if (scenario.connections !== undefined) await sleep(SETTLE_SECONDS * 1000);
  return { ...result, peakRssMb: takePeakRssMb(target) };
}

/**
 * CPU time of a request, the service's and the database server's, in µs.
 * Compares pages measured with few connections, where requests/s follows
 * latency rather than cost.
 */
function cpuCost(result: LoadResult | undefined): number {
  return (result?.cpu?.service ?? Number.NaN) + (result?.cpu?.database ?? 0);
}

/** The round whose requests/s is the median of the rounds. */
function median(results: LoadResult[]): LoadResult {
  return [...results].sort((a, b) => a.rps - b.rps)[Math.floor(results.length / 2)];
}

function medianOf(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

/** The median, over rounds, of the ratio of two figures measured in the same round. */
function medianRatio(over: LoadResult[], under: LoadResult[]): number {
  const ratios = over.map((result, round) => result.rps / under[round].rps).sort((a, b) => a - b);
  return ratios[Math.floor(ratios.length / 2)];
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

    // Untimed: each process under its load, and the service through every path.
    const floorHeaders = { 'content-type': 'application/json' };
    for (const scenario of dialect === 'postgres'
      ? [FLOOR_PAGE, FLOOR_INSERT, FLOOR_CREATE]
      : [FLOOR_PAGE, FLOOR_INSERT])
      await warmUp(floor, scenario, seeded, floorHeaders, WARMUP);
    await warmUp(floor, FLOOR, seeded, floorHeaders, WARMUP_PROCESS);
    await warmUp(multi, GET_MEMBER, seeded, headers, WARMUP_PROCESS);
    await warmUp(single, GET_MEMBER, seeded, headers, WARMUP_PROCESS);
    for (const scenario of SCENARIOS) await warmUp(single, scenario, seeded, headers, WARMUP);

    // Measured in every round, side by side (see the top of this file). Writes have targets of their
    // own in requests/s: a median over rounds is not one slow patch of the machine.
    const inRounds: [string, Running, Scenario][] = [
      ['floor', floor, FLOOR],
      ['single', single, GET_MEMBER],
      // Issue 40: the door's decisions, each next to the figure it is compared with.
      ['dryRun', single, DRY_RUN_DECISION],
      ['multi', multi, GET_MEMBER],
      ['floorPage', floor, FLOOR_PAGE],
      ['large', single, LARGE_PAGE],
      ['small', single, SMALL_PAGE],
      ['floorInsert', floor, FLOOR_INSERT],
      // PostgreSQL's write ceiling (issue 38): the driver alone running the create's own statements.
      ...(dialect === 'postgres'
        ? [['floorCreate', floor, FLOOR_CREATE] as [string, Running, Scenario]]
        : []),
      ['post', single, POST_MEMBER],
      ['decision', single, RECORDED_DECISION],
      ['patch', single, PATCH_MEMBER],
    ];
    /** The floor each figure is compared with: the bare route that does the same work. */
    const floorOf: Record<string, string | undefined> = {
      single: 'floor',
      multi: 'floor',
      large: 'floorPage',
      small: 'floorPage',
      post: 'floorInsert',
    };
    const floors = new Set<Scenario>([FLOOR, FLOOR_PAGE, FLOOR_INSERT, FLOOR_CREATE]);
    const rounds: Record<string, LoadResult[]> = Object.fromEntries(inRounds.map(([key]) => [key, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [key, target, scenario] of inRounds)
        rounds[key].push(
          await measure(target, scenario, seeded, floors.has(scenario) ? floorHeaders : headers),
        );
    }
    // A failed request in any round counts, not only in the median one.
    const errorsOfRounds = (key: string) => rounds[key].reduce((sum, result) => sum + result.errors, 0);
    const peakOfRounds = (key: string) => Math.max(...rounds[key].map((result) => result.peakRssMb ?? 0));
    const vsFloor = (key: string) => {
      const floorKey = floorOf[key];
      return floorKey === undefined ? undefined : medianRatio(rounds[key], rounds[floorKey]);
    };
    const rowOfRounds = (key: string, scenario: Scenario, name = scenario.name): Row => ({
      ...median(rounds[key]),
      errors: errorsOfRounds(key),
      peakRssMb: peakOfRounds(key),
      scenario: `${name} (median of ${ROUNDS})`,
      ratio: vsFloor(key),
    });
    const floorRow = rowOfRounds('floor', FLOOR, 'floor: bare Fastify route, same row by key');
    const rows: Row[] = [
      floorRow,
      rowOfRounds('floorPage', FLOOR_PAGE, 'floor: bare Fastify route, the same page of 100'),
      rowOfRounds('floorInsert', FLOOR_INSERT, 'floor: bare Fastify route, one INSERT'),
    ];
    if (dialect === 'postgres')
      rows.push(
        rowOfRounds('floorCreate', FLOOR_CREATE, "floor: bare Fastify route, the create's statements"),
      );
    const measuredOnce = new Map<Scenario, LoadResult>();
    for (const scenario of SCENARIOS) {
      const key = inRounds.find(([, target, measured]) => target === single && measured === scenario)?.[0];
      if (key) rows.push(rowOfRounds(key, scenario));
      else {
        const result = await measure(single, scenario, seeded, headers);
        measuredOnce.set(scenario, result);
        rows.push({
          ...result,
          scenario: scenario.name,
          ratio: scenario.read
            ? result.rps / (scenario.page ? median(rounds.floorPage) : floorRow).rps
            : undefined,
        });
      }
    }
    rows.push(rowOfRounds('multi', GET_MEMBER, `GET one member, WORKERS=${WORKERS}`));

    printTable(rows);
    const perRound = (key: string) => rounds[key].map((r) => Math.round(r.rps)).join(', ');
    console.log(
      `\nrounds, req/s: floor ${perRound('floor')}; floor page ${perRound('floorPage')}; floor INSERT ${perRound('floorInsert')}; GET one member ${perRound('single')}; with WORKERS=${WORKERS} ${perRound('multi')}; ` +
        `page at ${members.toLocaleString()} ${perRound('large')}; page at 1,000 ${perRound('small')}; ` +
        `POST member ${perRound('post')}; PATCH member ${perRound('patch')}; ` +
        `decision, dry run ${perRound('dryRun')}; decision, recorded ${perRound('decision')}` +
        (dialect === 'postgres' ? `; floor, the create's statements ${perRound('floorCreate')}` : ''),
    );
    printTargets({
      dialect,
      members,
      workers: WORKERS,
      connections: CONNECTIONS,
      getMemberVsFloor: medianRatio(rounds.single, rounds.floor),
      pageVsFloor: medianRatio(rounds.large, rounds.floorPage),
      createVsFloor: medianRatio(rounds.post, rounds.floorInsert),
      dryRunVsGetMember: medianRatio(rounds.dryRun, rounds.single),
      decisionVsCreate: medianRatio(rounds.decision, rounds.post),
      decisionTail: medianOf(rounds.decision.map((result) => result.p99 / result.p50)),
      createVsCeiling: dialect === 'postgres' ? medianRatio(rounds.post, rounds.floorCreate) : undefined,
      floorPeakRssMb: peakRssMb(floor),
      workersVsOne: medianRatio(rounds.multi, rounds.single),
      largePageCost: medianRatio(rounds.small, rounds.large),
      rareSearchCost:
        cpuCost(measuredOnce.get(LARGE_RARE_SEARCH)) / cpuCost(measuredOnce.get(SMALL_RARE_SEARCH)),
      creates: median(rounds.post),
      patches: median(rounds.patch),
      peakRssMb: peakRssMb(single),
      fileBackedMb: residentMb(single).file,
      peakRssWorkersMb: peakRssMb(multi),
      single: median(rounds.single),
      cores: cpus().length,
    });
  } finally {
    for (const process of running) await stop(process);
    await test?.drop();
    removeSqliteFiles(file);
    rmSync(log, { force: true });
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
