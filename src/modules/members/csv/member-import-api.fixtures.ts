/** Import jobs as tests drive them: start one, follow it to its end, read what it reported. */
import { eventually } from '../../../../test/eventually.js';
import type { Api, TestResponse } from '../../../../test/harness.js';
import { inject } from '../../../../test/inject.js';

export const importUrl = (facility: number, query = '') =>
  `/admin/facilities/${facility}/members/import${query}`;
export const isFinished = (job: { state: string }) => job.state === 'succeeded' || job.state === 'failed';

/** POSTs a CSV file: the 202 with its job, or the problem. */
export async function startImport(
  api: Api,
  facility: number,
  csv: string | Buffer,
  query = '',
  headers: Record<string, string> = {},
): Promise<TestResponse> {
  if (typeof csv === 'string') {
    return api.request('POST', importUrl(facility, query), csv, { 'content-type': 'text/csv', ...headers });
  }
  // Bytes as they are (the harness would send a Buffer as JSON).
  return inject(api.app, {
    method: 'POST',
    url: importUrl(facility, query),
    headers: { 'content-type': 'text/csv', ...headers },
    payload: csv,
  });
}

/** Follows the job at `location` until it has finished; its last state. */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
export async function finishedJob(api: Api, location: string): Promise<any> {
  return eventually(
    `import ${location} to finish`,
    async () => {
      const job = (await api.get(location)).body;
      return isFinished(job) && job;
    },
    30_000,
  );
}

/**
 * Imports a file as today's synchronous import answered: the finished job's
 * report as `body` (with status 200), or the problem the POST answered. The
 * job itself is `job`.
 */
export async function importCsv(
  api: Api,
  facility: number,
  csv: string | Buffer,
  query = '',
  headers: Record<string, string> = {},
): Promise<TestResponse & { job?: Record<string, unknown> }> {
  const started = await startImport(api, facility, csv, query, headers);
  if (started.status !== 202) return started;
  const job = await finishedJob(api, String(started.headers.location));
  return { ...started, status: 200, body: job.report, job };
}
