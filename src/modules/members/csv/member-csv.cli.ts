import { open, stat } from 'node:fs/promises';
import { Readable, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { rolesWith } from '../../../core/roles.js';
import { packageName } from '../../../package-info.js';
import { jobProgressLine, uploadProgress } from './member-csv-progress.js';

/** How often the command looks at a running import. */
const POLL_MS = 500;

/** `facility-admin members import|export`: CSV files to and from a running service, over its HTTP API. */
export function registerMemberCsvCommands(program: Command): void {
  const members = program.command('members').description("import and export a facility's members as CSV");
  const target = (command: Command) =>
    command
      .requiredOption('--facility <id>', 'the facility', parseFacilityId)
      .addOption(
        new Option('--url <url>', 'where the service is, with its BASE_PATH')
          .env('FACILITY_ADMIN_URL')
          .default('http://127.0.0.1:3000'),
      )
      .addOption(
        new Option(
          '--key <key>',
          `an API key (to import, one of the roles ${rolesWith('members.import').join(', ')})`,
        ).env('FACILITY_ADMIN_KEY'),
      );

  target(members.command('import'))
    .description(
      'import a CSV file of members: shows the upload, then the job, on a terminal; prints the report (JSON) ' +
        'and exits 1 if rows failed or the import did not finish',
    )
    .argument('<file>', 'the CSV file')
    .option('--dry-run', 'check every row and write nothing')
    .addOption(
      new Option('--match-by <field>', 'update the member that matches')
        .choices(['external_id', 'email', 'none'])
        .default('none'),
    )
    .addOption(
      new Option('--on-error <mode>', 'abort: all or nothing; skip: write the good rows')
        .choices(['abort', 'skip'])
        .default('abort'),
    )
    .action(
      oneLineFailures(
        async (
          file: string,
          options: TargetOptions & { dryRun?: boolean; matchBy: string; onError: string },
        ) => {
          const query = new URLSearchParams({
            dry_run: String(Boolean(options.dryRun)),
            match_by: options.matchBy,
            on_error: options.onError,
            wait: '1',
          });
          const { size } = await stat(file).catch(() => fail(`cannot read ${file}`));
          const handle = await open(file);
          const started = await request(options, `${membersUrl(options)}/import?${query}`, {
            method: 'POST',
            headers: {
              ...authorization(options),
              'content-type': 'text/csv',
              'idempotency-key': crypto.randomUUID(),
            },
            body: Readable.toWeb(uploadProgress(handle.createReadStream(), size)) as ReadableStream,
            duplex: 'half',
          } as RequestInit);
          let job = await started.json();
          const location = new URL(started.headers.get('location') ?? '', options.url).toString();
          while (job.state !== 'succeeded' && job.state !== 'failed') {
            if (process.stderr.isTTY) process.stderr.write(`\r${jobProgressLine(job)}`);
            await sleep(POLL_MS);
            job = await (await request(options, location, { headers: authorization(options) })).json();
          }
          if (process.stderr.isTTY) process.stderr.write(`\r${jobProgressLine(job)}\n`);
          if (job.report !== null) process.stdout.write(`${JSON.stringify(job.report, null, 2)}\n`);
          if (job.state === 'failed') {
            process.stderr.write(
              `${packageName}: the import did not finish: ${job.error?.code}: ${job.error?.message}\n`,
            );
          }
          if (job.state === 'failed' || job.report?.counts?.failed > 0) process.exitCode = 1;
        },
      ),
    );

  target(members.command('export'))
    .description('write the CSV file of the members to stdout')
    .option('--status <statuses>', 'only these statuses, e.g. active,frozen')
    .option('--q <text>', 'only members whose name or email holds this text')
    .action(
      oneLineFailures(async (options: TargetOptions & { status?: string; q?: string }) => {
        const query = new URLSearchParams();
        if (options.status) query.set('status', options.status);
        if (options.q) query.set('q', options.q);
        const response = await request(options, `${membersUrl(options)}/export.csv?${query}`, {
          headers: authorization(options),
        });
        await (response.body as ReadableStream).pipeTo(Writable.toWeb(process.stdout));
      }),
    );
}

interface TargetOptions {
  facility: number;
  url: string;
  key?: string;
}

/** One line on stderr, exit code 1: what went wrong, without a stack. */
class CommandFailure extends Error {}

function fail(message: string): never {
  throw new CommandFailure(message);
}

/**
 * A request to the service: its answer when it is a success. A service that
 * cannot be reached, or answers a problem, ends the command with one line.
 */
async function request(target: TargetOptions, url: string, init: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    fail(
      `cannot reach the service at ${target.url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
    );
  }
  if (response.ok) return response;
  const text = await response.text();
  let problem: { code?: string; detail?: string } = {};
  try {
    problem = JSON.parse(text);
  } catch {}
  fail(
    problem.code
      ? `the service answered ${response.status} ${problem.code}: ${problem.detail}`
      : `the service answered ${response.status}: ${text.slice(0, 200)}`,
  );
}

function parseFacilityId(value: string): number {
  if (!/^[1-9]\d{0,15}$/.test(value)) throw new InvalidArgumentError('expected a positive facility id');
  return Number(value);
}

const membersUrl = ({ url, facility }: TargetOptions) =>
  `${url.replace(/\/+$/, '')}/admin/facilities/${facility}/members`;
const authorization = ({ key }: TargetOptions): Record<string, string> =>
  key ? { authorization: `Bearer ${key}` } : {};

/** The action, with its failures printed as one line on stderr and exit code 1. */
function oneLineFailures<A extends unknown[]>(action: (...args: A) => Promise<void>) {
  return async (...args: A) => {
    try {
      await action(...args);
    } catch (error) {
      if (!(error instanceof CommandFailure)) throw error;
      process.stderr.write(`${process.stderr.isTTY ? '\n' : ''}${packageName}: ${error.message}\n`);
      process.exitCode = 1;
    }
  };
}
