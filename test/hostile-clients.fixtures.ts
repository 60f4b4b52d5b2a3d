/**
 * What the tests of hostile clients share: the real service seeded through
 * the API, clients that never read, and the process's memory and the kernel's
 * view of a connection, read from /proc.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import type { ServiceProcess } from './service-process.js';

export const FACILITY = 1;
export const MEMBERS = 1000;
/** 2,000 characters that JSON writes 6 bytes wide (\u0001): about 12 kB a member, 13 MB a page of 1,000. */
export const NOTES = '\u0001'.repeat(2000);
export const LARGEST_PAGES = [
  `/admin/facilities/${FACILITY}/members?limit=1000`,
  `/admin/facilities/${FACILITY}/audit-events?limit=1000`,
];
/**
 * The process's own memory (anonymous RSS) that the limits allow at most
 * (docs/decisions.md, "Memory"): about 70 MB of heap, 30 MB of the rest of
 * the process and 24 MiB unsent. Its code, the node binary's pages, is
 * left out: it differs by Node line (61 to 66 MB), and no client moves it.
 */
export const MAX_OWN_MEMORY_MB = 125;

/** Fills the facility through the API: each member also writes an audit event that holds its notes. */
export async function seed(url: string): Promise<void> {
  const database = openDatabase(url);
  const app = await buildApp(
    { ...loadConfig({}), databaseUrl: url, authMode: 'none', rateLimitPerMinute: 0 },
    { database, logger: false },
  );
  let next = 0;
  const addMembers = async () => {
    for (let i = next++; i < MEMBERS; i = next++) {
      const response = await app.inject({
        method: 'POST',
        url: `/admin/facilities/${FACILITY}/members`,
        payload: { first_name: `Member${i}`, notes: NOTES },
      });
      assert.equal(response.statusCode, 201, response.body);
    }
  };
  await Promise.all(Array.from({ length: 8 }, addMembers));
  await app.close();
  await database.close();
}

/** A client that sends its request and never reads: its receive buffer fills, then the server's send buffer. */
export function nonReadingClient(service: ServiceProcess, path: string): Socket {
  const { port } = new URL(service.baseUrl);
  const socket = connect({ host: '127.0.0.1', port: Number(port) });
  socket.on('error', () => {});
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  socket.pause();
  return socket;
}

/**
 * A client's connection as the kernel's table of TCP connections
 * (/proc/net/tcp) has it, at the client's end or at the server's (both on
 * this machine), so that a client that does not read can learn what the
 * server did without reading: whether that end is still established, and how
 * many bytes arrived there unread. Undefined once that end is gone.
 */
export function tcpRow(
  socket: Socket,
  end: 'client' | 'server',
): { established: boolean; unread: number } | undefined {
  const hexPort = (port: number | undefined) => (port ?? 0).toString(16).toUpperCase().padStart(4, '0');
  const [ours, theirs] =
    end === 'client' ? [socket.localPort, socket.remotePort] : [socket.remotePort, socket.localPort];
  const local = `:${hexPort(ours)}`;
  const remote = `:${hexPort(theirs)}`;
  const rows = ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((table) =>
    readFileSync(table, 'utf8').split('\n').slice(1),
  );
  for (const row of rows) {
    const [, localAddress, remoteAddress, state, queues] = row.trim().split(/\s+/);
    if (!localAddress?.endsWith(local) || !remoteAddress?.endsWith(remote)) continue;
    return { established: state === '01', unread: Number.parseInt(queues.split(':')[1], 16) };
  }
  return undefined;
}

/** Peak and current resident memory of a process, in MB. */
export function residentMb(pid: number): { peak: number; now: number; anonymous: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1]);
  return { peak: kb('VmHWM') / 1024, now: kb('VmRSS') / 1024, anonymous: kb('RssAnon') / 1024 };
}

/**
 * A GET and how long it took (for the log: how fast is the benchmark's to
 * say); status 0 when it failed, or was not answered within a minute.
 */
export async function timedGet(
  service: ServiceProcess,
  path: string,
): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  try {
    const response = await fetch(service.baseUrl + path, { signal: AbortSignal.timeout(60_000) });
    await response.arrayBuffer();
    return { status: response.status, ms: performance.now() - started };
  } catch {
    return { status: 0, ms: performance.now() - started };
  }
}

/**
 * Thirty requests of another client, one after another, while hostile
 * clients hold the service: their answers, and the process's own memory
 * sampled between them (/proc keeps no peak of the anonymous part). Fails
 * when the process has ended.
 */
export async function othersMeanwhile(service: ServiceProcess) {
  const pid = service.child.pid as number;
  const running = () => service.child.exitCode === null && service.child.signalCode === null;
  const answers: { status: number; ms: number }[] = [];
  let ownMemoryPeak = 0;
  for (let i = 0; i < 30 && running(); i++) {
    answers.push(await timedGet(service, `/admin/facilities/${FACILITY}/members?limit=10`));
    if (running()) ownMemoryPeak = Math.max(ownMemoryPeak, residentMb(pid).anonymous);
  }
  assert.equal(service.child.exitCode, null, service.output());
  assert.equal(service.child.signalCode, null, service.output());
  return { answers, ownMemoryPeak: Math.max(ownMemoryPeak, residentMb(pid).anonymous) };
}
