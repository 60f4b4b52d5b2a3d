import type { MemberImportReport } from './member-csv.schemas.js';
import type { ImportCounts, RowError, Tally } from './member-import-row.service.js';

/** Row errors one report lists at most; `errors_omitted` counts the rest. */
export const MAX_LISTED_ERRORS = 1000;

/** What a pass has done so far, as a job row keeps it (and a resumed job reads it back). */
export interface ImportProgress {
  rows_done: number;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  errors_omitted: number;
  /** JSON array of the listed errors. */
  errors: string;
}

/** A pass's running totals: counts, the first MAX_LISTED_ERRORS row errors, how many more. */
export class ImportTotals {
  counts: ImportCounts;
  errors: RowError[];
  omitted: number;
  /** Whether errors were listed since the last progress() (a job row then stores the list again). */
  #listedMore = false;

  constructor(saved?: ImportProgress) {
    this.counts = {
      rows: saved?.rows_done ?? 0,
      created: saved?.created ?? 0,
      updated: saved?.updated ?? 0,
      unchanged: saved?.unchanged ?? 0,
      failed: saved?.failed ?? 0,
    };
    this.errors = saved ? (JSON.parse(saved.errors) as RowError[]) : [];
    this.omitted = saved?.errors_omitted ?? 0;
  }

  add(tally: Tally): void {
    for (const key of Object.keys(this.counts) as (keyof ImportCounts)[])
      this.counts[key] += tally.counts[key];
    for (const error of tally.errors) {
      if (this.errors.length < MAX_LISTED_ERRORS) {
        this.errors.push(error);
        this.#listedMore = true;
      } else this.omitted += 1;
    }
  }

  /** The columns of the job row that changed; the list of errors only when it grew. */
  progress(): Partial<ImportProgress> {
    const { rows, ...counts } = this.counts;
    const progress: Partial<ImportProgress> = { rows_done: rows, ...counts, errors_omitted: this.omitted };
    if (this.#listedMore) progress.errors = JSON.stringify(this.errors);
    this.#listedMore = false;
    return progress;
  }

  report(dryRun: boolean, written: boolean): MemberImportReport {
    return {
      dry_run: dryRun,
      written,
      counts: { ...this.counts },
      errors: this.errors,
      errors_omitted: this.omitted,
    };
  }
}
