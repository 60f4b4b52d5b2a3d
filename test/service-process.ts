/**
 * Runs the real service as a child process (`node --import tsx src/cli.ts
 * serve`), as an operator would, for the tests and scripts that need a second
 * process or a process they can kill; or built, as `npm start` runs it.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The command line of `npm start`, without npm in between: the script's
 * environment assignments and node arguments (`NAME=value … node <args>`),
 * read from package.json.
 */
export function npmStartCommand(): { env: Record<string, string>; nodeArgs: string[] } {
  const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const words = (packageJson.scripts.start as string).split(/\s+/);
  const nodeAt = words.indexOf('node');
  const env = Object.fromEntries(
    words.slice(0, nodeAt).map((assignment) => {
      const equals = assignment.indexOf('=');
      return [assignment.slice(0, equals), assignment.slice(equals + 1)];
    }),
  );
  return { env, nodeArgs: words.slice(nodeAt + 1) };
}

/** Compiles src/ to dist/, as `npm start` does first (its prestart script). */
export function buildService(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: REPO_ROOT, stdio: 'inherit' });
}
/** How long startService waits for /readyz to answer 200 unless told otherwise. */
const READY_TIMEOUT_MS = 180_000;
/** How much of the child's output is kept for error messages. */
const MAX_OUTPUT_CHARS = 64 * 1024;

export interface ServiceProcess {
  /** `http://127.0.0.1:<port>` */
  baseUrl: string;
  child: ChildProcess;
  /** The tail of what the process wrote to stdout and stderr. */
  output(): string;
  /** Sends the signal and waits until the process has exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * The status of a GET on a connection of its own, closed afterwards: unlike
 * fetch's, it stays in no pool, so the connections a test opens are all the
 * service has.
 */
function statusOf(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = get(url, { agent: false, timeout: 10_000 }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', reject);
  });
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * Starts the service on a free port of 127.0.0.1 with authentication and the
 * rate limit off and one process (WORKERS=1), and waits until /readyz answers 200. `asNpmStart` runs the
 * build in dist/ (see buildService) with npm start's node arguments and
 * environment, as users run it.
 */
export async function startService(
  databaseUrl: string,
  options: { env?: Record<string, string>; readyTimeoutMs?: number; asNpmStart?: boolean } = {},
): Promise<ServiceProcess> {
  const port = await freePort();
  const start = options.asNpmStart ? npmStartCommand() : undefined;
  const args = start?.nodeArgs ?? ['--import', 'tsx', 'src/cli.ts', 'serve'];
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      ...start?.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      AUTH_MODE: 'none',
      ADMIN_API_KEY: '',
      RATE_LIMIT_PER_MINUTE: '0',
      REDIS_URL: '',
      BASE_PATH: '',
      LOG_LEVEL: 'warn',
      // One process whose pid is the service's, unless a test asks for workers (the default is auto).
      WORKERS: '1',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-MAX_OUTPUT_CHARS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

  const service: ServiceProcess = {
    baseUrl: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    kill: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };

  // How long to give a starting process, not a bound on the service: on a machine busy with other test
  // runs, starting tsx and the migrations can take a minute and more.
  const deadline = performance.now() + (options.readyTimeoutMs ?? READY_TIMEOUT_MS);
  let lastSeen = 'no answer yet';
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `the service exited before it was ready (${child.exitCode ?? child.signalCode}):\n${output}`,
      );
    }
    try {
      const status = await statusOf(`${service.baseUrl}/readyz`);
      if (status === 200) return service;
      lastSeen = `GET /readyz ${status}`;
    } catch (error) {
      // Not listening yet, or too busy to answer within the probe's own timeout.
      lastSeen = (error as Error).message;
    }
    if (performance.now() > deadline) {
      await service.kill('SIGKILL');
      throw new Error(`the service was not ready within the time limit (last: ${lastSeen}):\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
