/** The processes a benchmark run starts: the floor and the service, as users run it. */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { npmStartCommand } from '../test/service-process.js';
import { type CpuMeter, cpuMeter, processAndChildren } from './cpu.js';

/** The service is started as `npm start` starts it, without npm in between. */
const { env: SERVICE_ENV, nodeArgs: SERVICE_ARGS } = npmStartCommand();

export interface Running {
  url: string;
  child: ChildProcess;
  cpu: CpuMeter;
}

/**
 * Processes log to a file, as under a service manager. Not to a pipe read by
 * this process: wrk runs synchronously here, so nothing would drain the pipe,
 * and a logger writing into a full pipe buffers in memory and stalls.
 */
function start(command: string, args: string[], env: Record<string, string>, log: string): ChildProcess {
  const output = openSync(log, 'a');
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', output, 'inherit'],
  });
  closeSync(output);
  return child;
}

async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {}
    await sleep(100);
  }
  throw new Error(`${url} did not come up`);
}

/** The bare Fastify route that reads the same member row (bench/floor.ts). */
export async function startFloor(databaseUrl: string, port: number, log: string): Promise<Running> {
  const child = start('node', ['--import', 'tsx', 'bench/floor.ts', databaseUrl, String(port)], {}, log);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/members/1`);
  return { url, child, cpu: cpuMeter(child.pid as number, databaseUrl) };
}

/** The built service with default logging, access control and the rate limiter counting. */
export async function startService(
  databaseUrl: string,
  port: number,
  workers: number,
  log: string,
): Promise<Running> {
  const env = {
    ...SERVICE_ENV,
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    WORKERS: String(workers),
    // Counts every request, but never refuses one.
    RATE_LIMIT_PER_MINUTE: '10000000',
  };
  const child = start('node', SERVICE_ARGS, env, log);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/readyz`);
  // Every worker listens once the primary's /readyz answers; give the others a moment.
  if (workers > 1) await sleep(1500);
  return { url, child, cpu: cpuMeter(child.pid as number, databaseUrl) };
}

export async function stop({ child }: Running): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

/** Peak resident memory (VmHWM) of a process or of its busiest child, in MB. */
export function peakRssMb({ child }: Running): number {
  let peak = 0;
  for (const pid of processAndChildren(child.pid as number)) {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (match) peak = Math.max(peak, Number(match[1]) / 1024);
    } catch {}
  }
  return peak;
}
