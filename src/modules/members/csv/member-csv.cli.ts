import { open, stat } from 'node:fs/promises';
import { Readable, Writable } from 'node:stream';
import { type Command, InvalidArgumentError, Option } from 'commander';

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
        new Option('--key <key>', 'an API key (admin or editor to import)').env('FACILITY_ADMIN_KEY'),
      );

  target(members.command('import'))
    .description('import a CSV file of members; prints the report (JSON) and exits 1 if rows failed')
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
      async (
        file: string,
        options: TargetOptions & { dryRun?: boolean; matchBy: string; onError: string },
      ) => {
        const query = new URLSearchParams({
          dry_run: String(Boolean(options.dryRun)),
          match_by: options.matchBy,
          on_error: options.onError,
        });
        const { size } = await stat(file);
        const handle = await open(file);
        const response = await fetch(`${membersUrl(options)}/import?${query}`, {
          method: 'POST',
          headers: {
            ...authorization(options),
            'content-type': 'text/csv',
            'idempotency-key': crypto.randomUUID(),
          },
          body: Readable.toWeb(withProgress(handle.createReadStream(), size)) as ReadableStream,
          duplex: 'half',
        } as RequestInit);
        const report = await response.json();
        if (process.stderr.isTTY) process.stderr.write('\n');
        process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
        if (!response.ok || report.counts?.failed > 0) process.exitCode = 1;
      },
    );

  target(members.command('export'))
    .description('write the CSV file of the members to stdout')
    .option('--status <statuses>', 'only these statuses, e.g. active,frozen')
    .option('--q <text>', 'only members whose name or email holds this text')
    .action(async (options: TargetOptions & { status?: string; q?: string }) => {
      const query = new URLSearchParams();
      if (options.status) query.set('status', options.status);
      if (options.q) query.set('q', options.q);
      const response = await fetch(`${membersUrl(options)}/export.csv?${query}`, {
        headers: authorization(options),
      });
      if (!response.ok || response.body === null) {
        process.stderr.write(`${await response.text()}\n`);
        process.exitCode = 1;
        return;
      }
      await response.body.pipeTo(Writable.toWeb(process.stdout));
    });
}

interface TargetOptions {
  facility: number;
  url: string;
  key?: string;
}

function parseFacilityId(value: string): number {
  if (!/^[1-9]\d{0,15}$/.test(value)) throw new InvalidArgumentError('expected a positive facility id');
  return Number(value);
}

const membersUrl = ({ url, facility }: TargetOptions) =>
  `${url.replace(/\/+$/, '')}/admin/facilities/${facility}/members`;
const authorization = ({ key }: TargetOptions): Record<string, string> =>
  key ? { authorization: `Bearer ${key}` } : {};

/** The file as it is read, with its share sent shown on a terminal's stderr. */
function withProgress(file: Readable, size: number): Readable {
  if (!process.stderr.isTTY || size === 0) return file;
  let sent = 0;
  file.on('data', (chunk: Buffer) => {
    sent += chunk.length;
    const share = sent / size;
    const bar = '#'.repeat(Math.round(share * 30)).padEnd(30, '.');
    process.stderr.write(`\r[${bar}] ${Math.round(share * 100)}% sent${share === 1 ? ', importing…' : ''}`);
  });
  return file;
}
