import { type Api, type CreateOptions, facility, idempotency, type Query } from './requests.js';
import { payloadOf } from './results.js';
import type { MemberImport, MemberImportPage, MemberImportReport } from './schema.js';

export type MemberImportQuery = Query<'importMembers'>;
export type MemberImportListQuery = Query<'listMemberImports'>;
export type MemberExportQuery = Query<'exportMembers'>;

/** What an import sends: the CSV text or bytes as they are. */
export type MembersCsvBody = string | Blob | Uint8Array | ReadableStream<Uint8Array>;

/** How importMembers follows the job it starts. */
export interface MemberImportOptions extends CreateOptions {
  /** Return the job as the service answered the upload, without waiting for it to finish. */
  returnJob?: boolean;
  /** How often a running job is looked at. Default 1000 ms. */
  pollIntervalMs?: number;
  /** Called with the job each time it is read while it runs (its `progress`), and once finished. */
  onProgress?: (job: MemberImport) => void;
  /** Stops waiting (the job goes on in the service). */
  signal?: AbortSignal;
}

/** Seconds the upload's answer waits for the job by default: a small file comes back finished. */
const DEFAULT_WAIT_SECONDS = 5;

/**
 * A job that could not finish: `job.error` says why (`code`, `message`).
 * Failing rows do not make a job fail: they are in its report.
 */
export class MemberImportFailed extends Error {
  readonly job: MemberImport;
  readonly code: string;

  constructor(job: MemberImport) {
    const error = job.error ?? { code: 'internal_error', message: 'The import failed' };
    super(`${error.code}: ${error.message}`);
    this.name = 'MemberImportFailed';
    this.job = job;
    this.code = error.code;
  }
}

const isFinished = (job: MemberImport) => job.state === 'succeeded' || job.state === 'failed';

/** CSV import and export of a facility's members. */
export function memberCsvOperations(api: Api) {
  const getMemberImport = async (facilityId: number, importId: number): Promise<MemberImport> =>
    payloadOf(
      await api.GET('/admin/facilities/{facility_id}/members/imports/{import_id}', {
        params: { path: { facility_id: facilityId, import_id: importId } },
      }),
    );

  /** Follows a job until it has finished: its report, or MemberImportFailed. */
  const reportOf = async (job: MemberImport, options: MemberImportOptions): Promise<MemberImportReport> => {
    let current = job;
    options.onProgress?.(current);
    while (!isFinished(current)) {
      await sleep(options.pollIntervalMs ?? 1000, options.signal);
      current = await getMemberImport(current.facility_id, current.id);
      options.onProgress?.(current);
    }
    if (current.state === 'failed' || current.report === null) throw new MemberImportFailed(current);
    return current.report;
  };

  async function importMembers(
    facilityId: number,
    csv: MembersCsvBody,
    query?: MemberImportQuery,
    options?: MemberImportOptions & { returnJob?: false },
  ): Promise<MemberImportReport>;
  async function importMembers(
    facilityId: number,
    csv: MembersCsvBody,
    query: MemberImportQuery,
    options: MemberImportOptions & { returnJob: true },
  ): Promise<MemberImport>;
  /**
   * Imports a CSV file of members (or checks it, with `dry_run: true`): the
   * service answers the upload with a job, which this follows (the upload's
   * answer waits `query.wait` seconds, 5 by default, then the job is polled)
   * until it has finished, and returns its report: what was or would be
   * created, updated and left unchanged, and each failing row. A job that
   * could not finish throws MemberImportFailed; a file the service refuses
   * as it is uploaded, a ProblemError. With `returnJob`, the job as the
   * upload's answer left it.
   */
  async function importMembers(
    facilityId: number,
    csv: MembersCsvBody,
    query: MemberImportQuery = {},
    options: MemberImportOptions = {},
  ): Promise<MemberImportReport | MemberImport> {
    const wait = query.wait ?? (options.returnJob ? 0 : DEFAULT_WAIT_SECONDS);
    const job: MemberImport = payloadOf(
      await api.POST('/admin/facilities/{facility_id}/members/import', {
        params: { ...facility(facilityId), query: { ...query, wait }, header: idempotency(options) },
        body: csv as unknown as string,
        // The bytes as they are, not JSON.
        bodySerializer: (body: unknown) => body as BodyInit,
        headers: { 'content-type': 'text/csv' },
        signal: options.signal,
      }),
    );
    return options.returnJob ? job : reportOf(job, options);
  }

  return {
    importMembers,
    /** One import job: its state, progress and, once finished, its report. */
    getMemberImport,
    /** Follows an import job (from `importMembers(…, { returnJob: true })`) until it has finished. */
    waitForMemberImport: async (facilityId: number, importId: number, options: MemberImportOptions = {}) =>
      reportOf(await getMemberImport(facilityId, importId), options),
    /** A page of the facility's import jobs, oldest first. */
    listMemberImports: async (
      facilityId: number,
      query: MemberImportListQuery = {},
    ): Promise<MemberImportPage> =>
      payloadOf(
        await api.GET('/admin/facilities/{facility_id}/members/imports', {
          params: { ...facility(facilityId), query },
        }),
      ),
    /** The facility's members as a CSV file, streamed as the service writes it. */
    exportMembers: async (
      facilityId: number,
      query: MemberExportQuery = {},
    ): Promise<ReadableStream<Uint8Array>> => {
      const result = await api.GET('/admin/facilities/{facility_id}/members/export.csv', {
        params: { ...facility(facilityId), query },
        parseAs: 'stream',
      });
      payloadOf({ ...result, data: undefined });
      return result.response.body as ReadableStream<Uint8Array>;
    },
  };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
