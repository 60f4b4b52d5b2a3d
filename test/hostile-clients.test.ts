/**
 * Clients that ask for the largest pages and never read the answers cannot
 * take the service down (docs/decisions.md, "Memory"): the real service, built
 * and started with npm start's node flags, over real sockets, on both
 * databases.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { createTestDatabase, DIALECTS, removeSqliteFiles } from './harness.js';
import { buildService, type ServiceProcess, startService } from './service-process.js';

const FACILITY = 1;
const MEMBERS = 1000;
/** 2,000 characters that JSON writes 6 bytes wide (\u0001): about 12 kB a member, 13 MB a page of 1,000. */
const NOTES = '\u0001'.repeat(2000);
const LARGEST_PAGES = [
  `/admin/facilities/${FACILITY}/members?limit=1000`,
  `/admin/facilities/${FACILITY}/audit-events?limit=1000`,
];
/**
 * The process's own memory (anonymous RSS) that the limits allow at most
 * (docs/decisions.md, "Memory"): about 70 MB of heap, 30 MB of the rest of
 * the process and 24 MiB unsent. Its code, the node binary's pages, is
 * left out: it differs by Node line (61 to 66 MB), and no client moves it.
 */
const MAX_OWN_MEMORY_MB = 125;

/** Fills the facility through the API: each member also writes an audit event that holds its notes. */
async function seed(url: string): Promise<void> {
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
function nonReadingClient(service: ServiceProcess, path: string): Socket {
  const { port } = new URL(service.baseUrl);
  const socket = connect({ host: '127.0.0.1', port: Number(port) });
  socket.on('error', () => {});
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  socket.pause();
  return socket;
}

/**
 * A client that reads the first bytes of its answer, then no more: resolves
 * once the server has begun to send, so a test need not guess how long the
 * answer takes to build.
 */
async function clientThatStopsReading(service: ServiceProcess, path: string): Promise<Socket> {
  const { port } = new URL(service.baseUrl);
  const socket = connect({ host: '127.0.0.1', port: Number(port) });
  socket.on('error', () => {});
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  await once(socket, 'data');
  socket.pause();
  return socket;
}

/** An import upload that sends its headers and then a line every 200 ms: it never ends. */
function tricklingUpload(service: ServiceProcess, facility: number): Socket {
  const { port } = new URL(service.baseUrl);
  const socket = connect({ host: '127.0.0.1', port: Number(port) });
  socket.on('error', () => {});
  socket.write(
    `POST /admin/facilities/${facility}/members/import HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
      'Content-Type: text/csv\r\nContent-Length: 1000000\r\n\r\nfirst_name\n',
  );
  const trickle = setInterval(() => socket.write('Ann\n'), 200);
  socket.on('close', () => clearInterval(trickle));
  return socket;
}

/**
 * Whether the server has closed the connection. A client that does not read
 * learns nothing of it, so this one starts reading: a closed connection ends
 * at once, one that the server keeps delivers its answer and stays open.
 */
async function closedByServer(socket: Socket): Promise<boolean> {
  const closed = once(socket, 'close').then(() => true);
  socket.resume();
  return Promise.race([closed, sleep(1000).then(() => false)]);
}

/** Waits until the condition holds, or fails after `ms`. */
async function until(condition: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  for (const started = Date.now(); !(await condition()); await sleep(50)) {
    if (Date.now() - started > ms) assert.fail(`not within ${ms} ms`);
  }
}

/**
 * Asks another client's page every 100 ms for 3 s while the process runs,
 * sampling its own memory (anonymous RSS; /proc keeps no peak of it) between
 * requests: the answers, and the peak.
 */
async function othersMeanwhile(
  service: ServiceProcess,
): Promise<{ answers: { status: number; ms: number }[]; ownMemoryPeak: number }> {
  const pid = service.child.pid as number;
  const answers: { status: number; ms: number }[] = [];
  let ownMemoryPeak = 0;
  const running = () => service.child.exitCode === null && service.child.signalCode === null;
  for (const startedAt = Date.now(); running() && Date.now() - startedAt < 3000; await sleep(100)) {
    answers.push(await timedGet(service, `/admin/facilities/${FACILITY}/members?limit=10`));
    if (running()) ownMemoryPeak = Math.max(ownMemoryPeak, residentMb(pid).anonymous);
  }
  assert.equal(service.child.exitCode, null, service.output());
  assert.equal(service.child.signalCode, null, service.output());
  return { answers, ownMemoryPeak: Math.max(ownMemoryPeak, residentMb(pid).anonymous) };
}

/** Peak and current resident memory of a process, in MB. */
function residentMb(pid: number): { peak: number; now: number; anonymous: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1]);
  return { peak: kb('VmHWM') / 1024, now: kb('VmRSS') / 1024, anonymous: kb('RssAnon') / 1024 };
}

async function timedGet(service: ServiceProcess, path: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  try {
    const response = await fetch(service.baseUrl + path, { signal: AbortSignal.timeout(5000) });
    await response.arrayBuffer();
    return { status: response.status, ms: performance.now() - started };
  } catch {
    return { status: 0, ms: performance.now() - started };
  }
}

before(() => buildService());

for (const dialect of DIALECTS) {
  describe(`clients that never read [${dialect}]`, () => {
    const file = join(tmpdir(), `facility-admin-hostile-${process.pid}-${dialect}.db`);
    let url = `sqlite:${file}`;
    let drop = async () => removeSqliteFiles(file);
    const clients: Socket[] = [];
    let service: ServiceProcess | undefined;

    before(async () => {
      if (dialect === 'postgres') ({ url, drop } = await createTestDatabase('postgres'));
      await seed(url);
    });

    after(async () => {
      for (const client of clients) client.destroy();
      await service?.kill();
      await drop();
      rmSync(file, { force: true });
    });

    /** A 13 MB page, which no socket's buffers take whole: its response stays unsent. */
    const UNLIMITED_PAGE = { PAGE_MAX_BYTES: String(64 * 1024 * 1024) };
    const limitsTest = dialect === DIALECTS[0] ? test : test.skip;

    limitsTest('STALL_TIMEOUT_MS: the connection of a client that stopped reading is closed', async () => {
      const limited = await startService(url, {
        env: { ...UNLIMITED_PAGE, UNSENT_MAX_BYTES: String(64 * 1024 * 1024), STALL_TIMEOUT_MS: '1000' },
      });
      try {
        const early = await clientThatStopsReading(limited, LARGEST_PAGES[0]);
        clients.push(early);
        assert.equal(await closedByServer(early), false, 'kept before the timeout');
        const late = await clientThatStopsReading(limited, LARGEST_PAGES[0]);
        clients.push(late);
        await sleep(4000);
        assert.equal(await closedByServer(late), true, 'closed after the timeout');
      } finally {
        await limited.kill();
      }
    });

    limitsTest(
      'UNSENT_MAX_BYTES: a response that would pass it closes the connections whose responses waited longest',
      async () => {
        const limited = await startService(url, {
          env: { ...UNLIMITED_PAGE, UNSENT_MAX_BYTES: String(16 * 1024 * 1024) },
        });
        try {
          // 13 MB each: the second would make 26 MB.
          const first = await clientThatStopsReading(limited, LARGEST_PAGES[0]);
          clients.push(first);
          // Counted before it is sent: the first is closed by then.
          const second = await clientThatStopsReading(limited, LARGEST_PAGES[0]);
          clients.push(second);
          assert.equal(await closedByServer(first), true, 'the one that waited longest is closed');
          assert.equal(await closedByServer(second), false, 'the latest is kept');
          assert.match(limited.output(), /UNSENT_MAX_BYTES/);
        } finally {
          await limited.kill();
        }
      },
    );

    limitsTest('MAX_CONNECTIONS: connections past it are closed as they arrive', async () => {
      const limited = await startService(url, { env: { MAX_CONNECTIONS: '4' } });
      try {
        const { port } = new URL(limited.baseUrl);
        const open = async () => {
          const socket = connect({ host: '127.0.0.1', port: Number(port) });
          socket.on('error', () => {});
          clients.push(socket);
          await once(socket, 'connect');
          return socket;
        };
        const held = [await open(), await open(), await open(), await open()];
        const refused = await open();
        await Promise.race([once(refused, 'close'), sleep(2000).then(() => assert.fail('not closed'))]);
        assert.ok(held.every((socket) => !socket.destroyed && socket.readyState === 'open'));
        held[0].destroy();
        await until(async () => (await timedGet(limited, '/healthz')).status === 200, 2000);
      } finally {
        await limited.kill();
      }
    });

    test(`256 import uploads that trickle their bodies leave others answered within a second, its own memory within ${MAX_OWN_MEMORY_MB} MB`, async () => {
      const uploading = await startService(url, { asNpmStart: true });
      try {
        const uploads = Array.from({ length: 256 }, (_, i) => tricklingUpload(uploading, 1000 + i));
        clients.push(...uploads);
        const { answers, ownMemoryPeak } = await othersMeanwhile(uploading);
        const refused = uploads.filter((socket) => socket.destroyed || socket.readableEnded).length;
        console.log(
          `[${dialect}] 256 trickling uploads: ${refused} refused at once; own memory at most ${ownMemoryPeak.toFixed(1)} MB; ` +
            `others answered in ${answers.map((answer) => answer.ms.toFixed(0)).join(', ')} ms`,
        );
        assert.deepEqual(
          answers.filter((answer) => answer.status !== 200 || answer.ms >= 1000),
          [],
          'every request of another client is answered 200 within a second',
        );
        // IMPORT_UPLOADS (4) are received at once; the others are answered 503 and closed before their bodies.
        assert.ok(refused >= 256 - 4, `${refused} uploads refused`);
        assert.ok(ownMemoryPeak <= MAX_OWN_MEMORY_MB, `own memory ${ownMemoryPeak.toFixed(1)} MB`);
      } finally {
        await uploading.kill();
      }
    });

    test(`64 that ask for the CSV export and never read leave others answered within a second, its own memory within ${MAX_OWN_MEMORY_MB} MB`, async () => {
      const exporting = await startService(url, { asNpmStart: true });
      try {
        for (let i = 0; i < 64; i++) {
          clients.push(nonReadingClient(exporting, `/admin/facilities/${FACILITY}/members/export.csv`));
        }
        const { answers, ownMemoryPeak } = await othersMeanwhile(exporting);
        console.log(
          `[${dialect}] 64 exports never read: own memory at most ${ownMemoryPeak.toFixed(1)} MB; ` +
            `others answered in ${answers.map((answer) => answer.ms.toFixed(0)).join(', ')} ms`,
        );
        assert.deepEqual(
          answers.filter((answer) => answer.status !== 200 || answer.ms >= 1000),
          [],
          'every request of another client is answered 200 within a second',
        );
        assert.ok(ownMemoryPeak <= MAX_OWN_MEMORY_MB, `own memory ${ownMemoryPeak.toFixed(1)} MB`);
      } finally {
        await exporting.kill();
      }
    });

    test(`64 that ask for the largest pages leave the process up, answering others within a second, its own memory within ${MAX_OWN_MEMORY_MB} MB`, async () => {
      service = await startService(url, { asNpmStart: true });
      const pid = service.child.pid as number;
      for (let i = 0; i < 64; i++) clients.push(nonReadingClient(service, LARGEST_PAGES[i % 2]));

      const answers: { status: number; ms: number }[] = [];
      // /proc keeps no peak of the anonymous part: it is sampled between requests.
      let ownMemoryPeak = 0;
      const running = () => service?.child.exitCode === null && service.child.signalCode === null;
      for (const startedAt = Date.now(); running() && Date.now() - startedAt < 3000; await sleep(100)) {
        answers.push(await timedGet(service, `/admin/facilities/${FACILITY}/members?limit=10`));
        if (running()) ownMemoryPeak = Math.max(ownMemoryPeak, residentMb(pid).anonymous);
      }

      assert.equal(service.child.exitCode, null, service.output());
      assert.equal(service.child.signalCode, null, service.output());
      const memory = residentMb(pid);
      ownMemoryPeak = Math.max(ownMemoryPeak, memory.anonymous);
      console.log(
        `[${dialect}] own memory (anonymous RSS) at most ${ownMemoryPeak.toFixed(1)} MB; peak RSS ${memory.peak.toFixed(1)} MB ` +
          `(now ${memory.now.toFixed(1)}); others answered in ${answers.map((answer) => answer.ms.toFixed(0)).join(', ')} ms`,
      );
      assert.deepEqual(
        answers.filter((answer) => answer.status !== 200 || answer.ms >= 1000),
        [],
        'every request of another client is answered 200 within a second',
      );
      assert.ok(ownMemoryPeak <= MAX_OWN_MEMORY_MB, `own memory ${ownMemoryPeak.toFixed(1)} MB`);
    });
  });
}
