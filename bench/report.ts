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
  floor: LoadResult;
  getMember: LoadResult;
  getMemberWorkers: LoadResult;
  largePage: LoadResult;
  smallPage: LoadResult;
  creates: LoadResult;
  patches: LoadResult;
  peakRssMb: number;
  peakRssWorkersMb: number;
}

/** The targets of the performance issue, each with this run's figure and whether it is met. */
export function printTargets(f: Figures): void {
  const lines: [string, string, boolean][] = [];
  const floorRatio = f.getMember.rps / f.floor.rps;
  const wanted = f.dialect === 'sqlite' ? 0.6 : 0.8;
  lines.push([`GET one member ≥ ${wanted} × the floor`, `${floorRatio.toFixed(2)} ×`, floorRatio >= wanted]);
  const pageCost = f.smallPage.rps / f.largePage.rps;
  lines.push([
    `a page at ${f.members.toLocaleString()} members within 1.3 × the cost at 1,000`,
    `${pageCost.toFixed(2)} ×`,
    pageCost <= 1.3,
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
  const scale = f.getMemberWorkers.rps / f.getMember.rps;
  lines.push([`WORKERS=${f.workers} reads ≥ 1.3 × one process`, `${scale.toFixed(2)} ×`, scale >= 1.3]);

  console.log(`\ntargets (${f.dialect}):`);
  for (const [target, figure, met] of lines)
    console.log(`  ${met ? 'met    ' : 'NOT met'}  ${target}: ${figure}`);
}
