/** What a benchmark run prints: the table, and each target of the issue with its figure. */
import type { LoadResult } from './load.js';

export interface Row extends LoadResult {
  scenario: string;
  /** Requests/s over the floor's median. */
  ratio?: number;
}

const microseconds = (value: number | undefined) =>
  value === undefined ? '–' : Math.round(value).toString();

/** The table; its CPU columns are microseconds per request of the process measured, the PostgreSQL server and the load generator. */
export function printTable(rows: Row[]): void {
  console.log(
    '\n| scenario | req/s | p50 ms | p99 ms | errors | × floor | CPU µs/req: process | database | load generator | peak RSS MB |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const row of rows) {
    const ratio = row.ratio === undefined ? '' : row.ratio.toFixed(2);
    const { cpu } = row;
    console.log(
      `| ${row.scenario} | ${Math.round(row.rps)} | ${row.p50} | ${row.p99} | ${row.errors} | ${ratio} ` +
        `| ${microseconds(cpu?.service)} | ${microseconds(cpu?.database)} | ${microseconds(cpu?.loadGenerator)} ` +
        `| ${row.peakRssMb === undefined ? '–' : row.peakRssMb.toFixed(0)} |`,
    );
  }
  // A scenario whose requests fail measures the error path, not the work it names.
  const failed = rows.filter((row) => row.errors > 0).map((row) => `${row.scenario}: ${row.errors}`);
  if (failed.length > 0) {
    console.log(
      `\nFAILED REQUESTS (status ≥ 400, timeouts, socket errors; the service's log says why): ${failed.join('; ')}`,
    );
  }
}

export interface Figures {
  dialect: 'sqlite' | 'postgres';
  members: number;
  workers: number;
  connections: number;
  /**
   * Medians of per-round ratios: GET one member over the floor's point read, a page over the floor's page,
   * POST member over the floor's INSERT, WORKERS over one process, and req/s of a small-facility page over a
   * large-facility page.
   */
  getMemberVsFloor: number;
  pageVsFloor: number;
  createVsFloor: number;
  workersVsOne: number;
  /** Issue 40, medians of per-round ratios of requests/s: a dry-run decision by card over GET one member, a recorded one over POST member. */
  dryRunVsGetMember: number;
  decisionVsCreate: number;
  /** Issue 40: p99 over p50 of recorded decisions, the median over rounds. */
  decisionTail: number;
  largePageCost: number;
  /** CPU per request (service and database) of a search matching one member: the large facility over the small one. */
  rareSearchCost: number;
  creates: LoadResult;
  patches: LoadResult;
  /** PostgreSQL: POST member over the floor running the create's own statements (the write ceiling). */
  createVsCeiling: number | undefined;
  /** The floor's peak RSS over the run: the bare route under the same load on the same Node. */
  floorPeakRssMb: number;
  peakRssMb: number;
  /** The file-backed part of the single process's RSS at the end (the node binary's code, mostly). */
  fileBackedMb: number;
  peakRssWorkersMb: number;
  /** GET one member with one process (the median round): how busy it kept the machine. */
  single: LoadResult;
  cores: number;
}

/** The targets of the performance issues (38, 32, and 5 before them), each with this run's figure and whether it is met. */
export function printTargets(f: Figures): void {
  const sqlite = f.dialect === 'sqlite';
  const rss = Math.max(f.peakRssMb, f.peakRssWorkersMb);
  const rssFigure =
    `${f.peakRssMb.toFixed(0)} MB alone (${f.fileBackedMb.toFixed(0)} MB of it file-backed at the end), ` +
    `${f.peakRssWorkersMb.toFixed(0)} MB the largest of ${f.workers} workers`;
  const issue32: [string, string, boolean][] = [];
  const ratioTargets: [string, number, number][] = [
    ['GET one member', f.getMemberVsFloor, sqlite ? 0.5 : 1.0],
    ['a page of 100 members', f.pageVsFloor, sqlite ? 0.8 : 1.0],
    ['POST a member', f.createVsFloor, sqlite ? 0.4 : 0.5],
  ];
  for (const [scenario, ratio, wanted] of ratioTargets)
    issue32.push([`${scenario} ≥ ${wanted} × the bare route`, `${ratio.toFixed(3)} ×`, ratio >= wanted]);
  issue32.push(['peak RSS ≤ 150 MB a process', rssFigure, rss <= 150]);

  const issue5: [string, string, boolean][] = [
    [
      `a page at ${f.members.toLocaleString()} members within 1.3 × the cost at 1,000`,
      `${f.largePageCost.toFixed(2)} ×`,
      f.largePageCost <= 1.3,
    ],
    [
      `a page filtered by q to one member, at ${f.members.toLocaleString()} members, within 1.3 × the cost at 1,000 (CPU a request)`,
      `${f.rareSearchCost.toFixed(1)} ×`,
      f.rareSearchCost <= 1.3,
    ],
  ];
  if (sqlite) {
    issue5.push(['creates ≥ 5,000/s', `${Math.round(f.creates.rps)}/s`, f.creates.rps >= 5000]);
    issue5.push(['PATCHes ≥ 5,000/s', `${Math.round(f.patches.rps)}/s`, f.patches.rps >= 5000]);
  }
  // Node 26's bound for issue 5's target: docs/performance.md, "Memory on Node 26".
  issue5.push(['peak RSS ≤ 170 MB a process', rssFigure, rss <= 170]);
  issue5.push([
    `WORKERS=${f.workers} reads ≥ 1.3 × one process`,
    `${f.workersVsOne.toFixed(2)} ×`,
    f.workersVsOne >= 1.3,
  ]);

  const issue38: [string, string, boolean][] = [
    ['a page of 100 members ≥ 0.6 × the bare route', `${f.pageVsFloor.toFixed(3)} ×`, f.pageVsFloor >= 0.6],
  ];
  if (f.createVsCeiling !== undefined) {
    issue38.push([
      "POST a member ≥ 0.55 × the driver alone running the create's statements",
      `${f.createVsCeiling.toFixed(3)} ×`,
      f.createVsCeiling >= 0.55,
    ]);
    // Issue 32's figure for it: 0.247 × (docs/performance.md, "Issue 32's targets").
    issue38.push([
      'POST a member against a bare INSERT no worse than before (0.247 ×)',
      `${f.createVsFloor.toFixed(3)} ×`,
      f.createVsFloor >= 0.247,
    ]);
  }
  issue38.push([
    `peak RSS ≤ the bare route's (${f.floorPeakRssMb.toFixed(0)} MB)`,
    rssFigure,
    rss <= f.floorPeakRssMb,
  ]);

  const issue40: [string, string, boolean][] = [
    [
      `a dry-run decision by card ≥ 0.5 × GET one member, at ${f.members.toLocaleString()} members`,
      `${f.dryRunVsGetMember.toFixed(3)} ×`,
      f.dryRunVsGetMember >= 0.5,
    ],
    [
      'a recorded decision ≥ 0.8 × POST a member',
      `${f.decisionVsCreate.toFixed(3)} ×`,
      f.decisionVsCreate >= 0.8,
    ],
    [
      `recorded decisions' p99 within 5 × their p50 (${f.connections} connections)`,
      `${f.decisionTail.toFixed(2)} ×`,
      f.decisionTail <= 5,
    ],
  ];

  const print = (lines: [string, string, boolean][]) => {
    for (const [target, figure, met] of lines)
      console.log(`  ${met ? 'met    ' : 'NOT met'}  ${target}: ${figure}`);
  };
  console.log(`\ntargets of issue 40 (${f.dialect}), each against the service in this run:`);
  print(issue40);
  console.log(`targets of issue 38 (${f.dialect}), each against the bare route in this run:`);
  print(issue38);
  console.log(`targets of issue 32 (${f.dialect}; q's two targets: bench/search.ts):`);
  print(issue32);
  console.log(`targets of issue 5 (${f.dialect}):`);
  print(issue5);
  const { cpu, rps } = f.single;
  if (cpu) {
    const { service, database, loadGenerator } = cpu;
    // How many cores the service, the database server and the load generator kept busy together.
    const busy = ((service + (database ?? 0) + loadGenerator) * rps) / 1e6;
    const parts = [`the service ${microseconds(service)} µs`];
    if (database !== undefined) parts.push(`PostgreSQL ${microseconds(database)} µs`);
    parts.push(`the load generator ${microseconds(loadGenerator)} µs`);
    console.log(
      `  (GET one member with one process: ${parts.join(', ')} of CPU a request kept ${busy.toFixed(2)} of ${f.cores} cores busy; ` +
        `what a second worker can add is what is left)`,
    );
  }
}
