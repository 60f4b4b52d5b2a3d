/** The processes a benchmark run starts: the floor and the service, as users run it. */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { npmStartCommand } from '../test/service-process.js';
import { type CpuMeter, cpuMeter, processAndChildren } from './cpu.js';

/** The service is started as `npm start` starts it, without npm in between. */
const { env: SERVICE_ENV, nodeArgs: SERVICE_ARGS } = npmStartCommand();

export interface Running {
  url: string;
  child: ChildProcess;
  cpu: CpuMeter;
  /** The highest peak RSS taken so far (takePeakRssMb), in MB. */
  peakMb?: number;
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

/** Peak resident memory (VmHWM) of a process or of its busiest child, in MB, over the whole run. */
export function peakRssMb(running: Running): number {
  return Math.max(running.peakMb ?? 0, largest(running, 'VmHWM'));
}

/**
 * The peak RSS since the last call, in MB, then starts a new peak (writing 5
 * to /proc/<pid>/clear_refs resets VmHWM): the peak of each scenario.
 */
export function takePeakRssMb(running: Running): number {
  const peak = largest(running, 'VmHWM');
  running.peakMb = Math.max(running.peakMb ?? 0, peak);
  for (const pid of processAndChildren(running.child.pid as number)) {
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
    } catch {}
  }
  return peak;
}

/** RSS now, in MB, and the part of it that is file-backed (the node binary's code, mostly). */
export function residentMb(running: Running): { rss: number; file: number } {
  return { rss: largest(running, 'VmRSS'), file: largest(running, 'RssFile') };
}

function largest({ child }: Running, field: string): number {
  let most = 0;
  for (const pid of processAndChildren(child.pid as number)) {
    try {
      const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (match) most = Math.max(most, Number(match[1]) / 1024);
    } catch {}
  }
  return most;
}
