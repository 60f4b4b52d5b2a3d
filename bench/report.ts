/** What a benchmark run prints: the table, and each target of the issue with its figure. */
import type { LoadResult } from './load.js';

export interface Row extends LoadResult {
  scenario: string;
  /** Requests/s over the floor's median. */
  ratio?: number;
}

export function printTable(rows: Row[]): void {
  console.log('\n| scenario | req/s | p50 ms | p99 ms | errors | × floor |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const row of rows) {
    const ratio = row.ratio === undefined ? '' : row.ratio.toFixed(2);
    console.log(
      `| ${row.scenario} | ${Math.round(row.rps)} | ${row.p50} | ${row.p99} | ${row.errors} | ${ratio} |`,
    );
  }
}

export interface Figures {
  dialect: 'sqlite' | 'postgres';
  members: number;
  workers: number;
  /** Medians of per-round ratios: GET one member over the floor, WORKERS over one process, and req/s of a small-facility page over a large-facility page. */
  getMemberVsFloor: number;
  workersVsOne: number;
  largePageCost: number;
  creates: LoadResult;
  patches: LoadResult;
  peakRssMb: number;
  peakRssWorkersMb: number;
}

/** The targets of the performance issue, each with this run's figure and whether it is met. */
export function printTargets(f: Figures): void {
  const lines: [string, string, boolean][] = [];
  const wanted = f.dialect === 'sqlite' ? 0.6 : 0.8;
  lines.push([
    `GET one member ≥ ${wanted} × the floor`,
    `${f.getMemberVsFloor.toFixed(3)} ×`,
    f.getMemberVsFloor >= wanted,
  ]);
  lines.push([
    `a page at ${f.members.toLocaleString()} members within 1.3 × the cost at 1,000`,
    `${f.largePageCost.toFixed(2)} ×`,
    f.largePageCost <= 1.3,
  ]);
  if (f.dialect === 'sqlite') {
    lines.push(['creates ≥ 5,000/s', `${Math.round(f.creates.rps)}/s`, f.creates.rps >= 5000]);
    lines.push(['PATCHes ≥ 5,000/s', `${Math.round(f.patches.rps)}/s`, f.patches.rps >= 5000]);
  }
  const rss = Math.max(f.peakRssMb, f.peakRssWorkersMb);
  lines.push([
    'peak RSS ≤ 150 MB a process',
    `${f.peakRssMb.toFixed(0)} MB alone, ${f.peakRssWorkersMb.toFixed(0)} MB the largest of ${f.workers} workers`,
    rss <= 150,
  ]);
  lines.push([
    `WORKERS=${f.workers} reads ≥ 1.3 × one process`,
    `${f.workersVsOne.toFixed(2)} ×`,
    f.workersVsOne >= 1.3,
  ]);

  console.log(`\ntargets (${f.dialect}):`);
  for (const [target, figure, met] of lines)
    console.log(`  ${met ? 'met    ' : 'NOT met'}  ${target}: ${figure}`);
}
