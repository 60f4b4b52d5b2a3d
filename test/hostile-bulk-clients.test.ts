/**
 * Bulk requests from clients that never finish them, against the real
 * service started as npm start does, on both databases: 256 import uploads
 * that trickle their bodies are refused before their bodies (IMPORT_UPLOADS
 * are received at once) and hold no memory, and 64 CSV exports that are
 * never read stay within the export limits; the process stays up, within its
 * own memory bound, and answers everyone else. How fast others are answered
 * is the benchmark's to measure (bench/isolation.ts).
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { eventually } from './eventually.js';
import { createTestDatabase, DIALECTS, removeSqliteFiles } from './harness.js';
import {
  FACILITY,
  MAX_OWN_MEMORY_MB,
  nonReadingClient,
  othersMeanwhile,
  seed,
} from './hostile-clients.fixtures.js';
import { buildService, type ServiceProcess, startService } from './service-process.js';

/** An import upload that sends its headers and then a line every 200 ms, of a million bytes announced. */
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

before(() => buildService());

for (const dialect of DIALECTS) {
  describe(`bulk requests that never finish [${dialect}]`, () => {
    const file = join(tmpdir(), `facility-admin-hostile-bulk-${process.pid}-${dialect}.db`);
    let url = `sqlite:${file}`;
    let drop = async () => removeSqliteFiles(file);
    const clients: Socket[] = [];

    before(async () => {
      if (dialect === 'postgres') ({ url, drop } = await createTestDatabase('postgres'));
      await seed(url);
    });

    after(async () => {
      for (const client of clients) client.destroy();
      await drop();
      rmSync(file, { force: true });
    });

    test(`256 import uploads that trickle their bodies: all but IMPORT_UPLOADS refused before their bodies, others answered, own memory within ${MAX_OWN_MEMORY_MB} MB`, async () => {
      const uploading = await startService(url, { asNpmStart: true });
      try {
        const uploads = Array.from({ length: 256 }, (_, i) => tricklingUpload(uploading, 1000 + i));
        clients.push(...uploads);
        const refused = () => uploads.filter((socket) => socket.destroyed || socket.readableEnded).length;
        // IMPORT_UPLOADS (4) are received at once; the others are answered 503 and closed before their bodies.
        await eventually('all but 4 uploads refused', () => refused() >= 256 - 4, 30_000);
        const { answers, ownMemoryPeak } = await othersMeanwhile(uploading);
        console.log(`[${dialect}] 256 trickling uploads: own memory at most ${ownMemoryPeak.toFixed(1)} MB`);
        assert.deepEqual(
          answers.filter((answer) => answer.status !== 200),
          [],
          'every request of another client is answered 200',
        );
        assert.ok(ownMemoryPeak <= MAX_OWN_MEMORY_MB, `own memory ${ownMemoryPeak.toFixed(1)} MB`);
      } finally {
        await uploading.kill();
      }
    });

    test(`64 that ask for the CSV export and never read: others answered, own memory within ${MAX_OWN_MEMORY_MB} MB`, async () => {
      const exporting = await startService(url, { asNpmStart: true });
      try {
        for (let i = 0; i < 64; i++) {
          clients.push(nonReadingClient(exporting, `/admin/facilities/${FACILITY}/members/export.csv`));
        }
        const { answers, ownMemoryPeak } = await othersMeanwhile(exporting);
        console.log(`[${dialect}] 64 exports never read: own memory at most ${ownMemoryPeak.toFixed(1)} MB`);
        assert.deepEqual(
          answers.filter((answer) => answer.status !== 200),
          [],
          'every request of another client is answered 200',
        );
        assert.ok(ownMemoryPeak <= MAX_OWN_MEMORY_MB, `own memory ${ownMemoryPeak.toFixed(1)} MB`);
      } finally {
        await exporting.kill();
      }
    });
  });
}
