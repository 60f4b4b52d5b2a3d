/**
 * Clients that ask for the largest pages and never read the answers cannot
 * take the service down (docs/decisions.md, "Memory"): the real service, built
 * and started with npm start's node flags, over real sockets, on both
 * databases.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { eventually } from './eventually.js';
import { createTestDatabase, DIALECTS, removeSqliteFiles } from './harness.js';
import {
  LARGEST_PAGES,
  MAX_OWN_MEMORY_MB,
  nonReadingClient,
  othersMeanwhile,
  residentMb,
  seed,
  tcpRow,
  timedGet,
} from './hostile-clients.fixtures.js';
import { buildService, type ServiceProcess, startService } from './service-process.js';

/** A client that stopped reading, and what it has received so far. */
interface StoppedClient {
  socket: Socket;
  received: Buffer[];
}

/**
 * A client that reads the first bytes of its answer, then no more: resolves
 * once the server has begun to send, so a test need not guess how long the
 * answer takes to build.
 */
async function clientThatStopsReading(service: ServiceProcess, path: string): Promise<StoppedClient> {
  const { port } = new URL(service.baseUrl);
  const socket = connect({ host: '127.0.0.1', port: Number(port) });
  const received: Buffer[] = [];
  socket.on('error', () => {});
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  await once(socket, 'data');
  socket.pause();
  return { socket, received };
}

/**
 * Whether the server keeps the connection, by what the client receives once
 * it reads again: true when the whole answer arrives (the server kept it),
 * false when the connection ends first (the server closed it).
 */
async function answerArrives({ socket, received }: StoppedClient): Promise<boolean> {
  const complete = () => {
    const bytes = Buffer.concat(received);
    const head = bytes.indexOf('\r\n\r\n');
    if (head < 0) return false;
    const length = /\r\ncontent-length: (\d+)/i.exec(bytes.subarray(0, head).toString('latin1'))?.[1];
    if (length !== undefined) return bytes.length >= head + 4 + Number(length);
    return bytes.subarray(-7).toString('latin1') === '\r\n0\r\n\r\n';
  };
  if (complete()) return true;
  const ended = new Promise<boolean>((resolve) => {
    socket.on('data', () => {
      if (complete()) resolve(true);
    });
    socket.once('close', () => resolve(complete()));
  });
  socket.resume();
  return ended;
}

/**
 * Whether the server has closed the connection: its end is no longer
 * established. (The client's end stays established while the server's unsent
 * bytes, and its FIN behind them, wait for a client that does not read.)
 */
const closedByServer = (socket: Socket) => tcpRow(socket, 'server')?.established !== true;

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
    // The limits are the process's own, not the database's: run once, on the first database.
    const limitsTest = (name: string, fn: () => Promise<void>) =>
      test(
        name,
        { skip: dialect !== DIALECTS[0] && `a limit of the process: run once, on ${DIALECTS[0]}` },
        fn,
      );

    limitsTest('STALL_TIMEOUT_MS: the connection of a client that stopped reading is closed', async () => {
      const limited = await startService(url, {
        env: { ...UNLIMITED_PAGE, UNSENT_MAX_BYTES: String(64 * 1024 * 1024), STALL_TIMEOUT_MS: '1000' },
      });
      try {
        const stopped = await clientThatStopsReading(limited, LARGEST_PAGES[0]);
        clients.push(stopped.socket);
        await eventually('the server closing the stalled connection', () => closedByServer(stopped.socket));
        assert.equal(await answerArrives(stopped), false, 'its answer cut short');
        // One that reads on is kept: nothing stalls its connection.
        const reading = await clientThatStopsReading(limited, LARGEST_PAGES[0]);
        clients.push(reading.socket);
        assert.equal(await answerArrives(reading), true, 'a client that reads gets its whole answer');
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
          clients.push(first.socket);
          // Counted before it is sent: the first is closed by then.
          const second = await clientThatStopsReading(limited, LARGEST_PAGES[0]);
          clients.push(second.socket);
          assert.equal(await answerArrives(first), false, 'the one that waited longest is closed');
          assert.equal(await answerArrives(second), true, 'the latest is kept: its whole answer arrives');
          // The log line is written by the log's own stream: wait for it rather than read at once.
          await eventually('the log to name UNSENT_MAX_BYTES', () =>
            /UNSENT_MAX_BYTES/.test(limited.output()),
          );
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
        await eventually('the fifth connection closed by the server', () => refused.destroyed);
        assert.ok(held.every((socket) => !socket.destroyed && socket.readyState === 'open'));
        held[0].destroy();
        await eventually(
          'a request served once a connection is free',
          async () => (await timedGet(limited, '/healthz')).status === 200,
        );
      } finally {
        await limited.kill();
      }
    });

    test(`64 that ask for the largest pages leave the process up, answering others, its own memory within ${MAX_OWN_MEMORY_MB} MB`, async () => {
      service = await startService(url, { asNpmStart: true });
      const pid = service.child.pid as number;
      const hostile = Array.from({ length: 64 }, (_, i) =>
        nonReadingClient(service as ServiceProcess, LARGEST_PAGES[i % 2]),
      );
      clients.push(...hostile);
      const running = () => service?.child.exitCode === null && service.child.signalCode === null;
      // Every one of the 64 answers on its way: bytes of each wait unread in its client's receive buffer.
      await eventually(
        'bytes of all 64 answers at their clients',
        () => !running() || hostile.every((socket) => (tcpRow(socket, 'client')?.unread ?? 0) > 0),
        60_000,
      );

      const { answers, ownMemoryPeak } = await othersMeanwhile(service);
      const memory = residentMb(pid);
      console.log(
        `[${dialect}] own memory (anonymous RSS) at most ${ownMemoryPeak.toFixed(1)} MB; peak RSS ${memory.peak.toFixed(1)} MB ` +
          `(now ${memory.now.toFixed(1)}); others answered in ${answers.map((answer) => answer.ms.toFixed(0)).join(', ')} ms`,
      );
      // How fast they are answered is the benchmark's to measure; here, that each is.
      assert.deepEqual(
        answers.filter((answer) => answer.status !== 200),
        [],
        'every request of another client is answered 200',
      );
      assert.ok(ownMemoryPeak <= MAX_OWN_MEMORY_MB, `own memory ${ownMemoryPeak.toFixed(1)} MB`);
    });
  });
}
