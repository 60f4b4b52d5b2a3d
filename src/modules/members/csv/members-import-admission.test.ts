/**
 * What an import's upload is refused for before its body is read, over real
 * sockets: a client sends the headers and a part of the body, and has its
 * answer without sending the rest.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { before, test } from 'node:test';
import { eventually } from '../../../../test/eventually.js';
import { type Api, describeEachDialect } from '../../../../test/harness.js';
import { loadConfig } from '../../../config.js';
import { importCsv } from './member-import-api.fixtures.js';

const DEFAULTS = loadConfig({}).memberImport;

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** A POST of an import that sends its headers and `part` of a body of `length` bytes, and no more. */
function partialUpload(port: number, facility: number, length: number, part = 'first_name\nAnn\n') {
  const socket = connect({ host: '127.0.0.1', port });
  socket.on('error', () => {});
  socket.write(
    `POST /admin/facilities/${facility}/members/import HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
      `Content-Type: text/csv\r\nContent-Length: ${length}\r\n\r\n${part}`,
  );
  return socket;
}

/** The answer on a socket, read until the server closes it (it does after a refusal). */
async function answerOn(socket: Socket): Promise<Answer> {
  let text = '';
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  await Promise.race([
    once(socket, 'close'),
    new Promise((_, reject) =>
      setTimeout(() => reject(new Error('timed out waiting for an answer')), 10_000),
    ),
  ]);
  const [head, body] = text.split('\r\n\r\n');
  const [statusLine, ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 2),
    ]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) };
}

const receivingUploads = async (api: Api) =>
  (await api.app.db.selectFrom('member_imports').select('id').where('state', '=', 'receiving').execute())
    .length;

function listening(api: Api): () => number {
  let port = 0;
  before(async () => {
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    port = (api.app.server.address() as { port: number }).port;
  });
  return () => port;
}

describeEachDialect(
  'member import uploads refused before their body: this process',
  (api) => {
    const port = listening(api);

    test('IMPORT_UPLOADS: one more upload than it allows is 503 with Retry-After, its body unread', async () => {
      const held = partialUpload(port(), api.newFacility(), 100_000);
      await eventually('the first upload to be received', async () => (await receivingUploads(api)) === 1);
      const refused = await answerOn(partialUpload(port(), api.newFacility(), 100_000));
      assert.deepEqual([refused.status, refused.body.code], [503, 'service_unavailable']);
      assert.equal(refused.headers['retry-after'], '5');
      assert.match(String(refused.body.detail), /receiving 1 imports already/);

      held.destroy();
      await eventually(
        'an upload to take the place the cut one gave back',
        async () => (await importCsv(api, api.newFacility(), 'first_name\nAnn\n')).status === 200,
      );
      assert.equal(await receivingUploads(api), 0);
    });

    test('a facility with an unfinished import is 409 import_in_progress, its body unread', async () => {
      const facility = api.newFacility();
      const held = partialUpload(port(), facility, 100_000);
      await eventually('the first upload to be received', async () => (await receivingUploads(api)) === 1);
      held.destroy();
      await eventually('the cut upload to be given up', async () => (await receivingUploads(api)) === 0);
      await api.app.db
        .insertInto('member_imports')
        .values({
          facility_id: facility,
          state: 'queued',
          dry_run: 0,
          match_by: 'none',
          on_error: 'abort',
          api_key_id: null,
          api_key_name: 'another process',
          request_id: null,
          // Held by another process that has not run it yet.
          lease_token: 'elsewhere',
          locked_until: new Date(Date.now() + 3_600_000).toISOString(),
          created_at: new Date().toISOString(),
        })
        .execute();
      const refused = await answerOn(partialUpload(port(), facility, 100_000));
      assert.deepEqual([refused.status, refused.body.code], [409, 'import_in_progress']);
    });

    test('a declared length over IMPORT_MAX_BYTES is 413 before the body', async () => {
      const refused = await answerOn(partialUpload(port(), api.newFacility(), DEFAULTS.maxBytes + 1));
      assert.deepEqual([refused.status, refused.body.code], [413, 'payload_too_large']);
    });

    test('a large file refused part-way (its header) is answered 400 to a client that sends it whole', async () => {
      const rows = 'Ada,38\n'.repeat(400_000);
      const response = await fetch(
        `http://127.0.0.1:${port()}/admin/facilities/${api.newFacility()}/members/import`,
        { method: 'POST', headers: { 'content-type': 'text/csv' }, body: `first_name,shoe_size\n${rows}` },
      );
      assert.equal(response.status, 400);
      assert.equal(((await response.json()) as { code: string }).code, 'invalid_csv');
    });
  },
  { memberImport: { ...DEFAULTS, uploads: 1 } },
);

describeEachDialect(
  'member import uploads refused before their body: all processes',
  (api) => {
    const port = listening(api);

    test('IMPORT_MAX_QUEUED: past the jobs that may wait, an upload is 503 with Retry-After, its body unread', async () => {
      const held = partialUpload(port(), api.newFacility(), 100_000);
      await eventually('the first upload to be received', async () => (await receivingUploads(api)) === 1);
      const refused = await answerOn(partialUpload(port(), api.newFacility(), 100_000));
      assert.deepEqual([refused.status, refused.body.code], [503, 'service_unavailable']);
      assert.equal(refused.headers['retry-after'], '30');
      assert.match(String(refused.body.detail), /1 imports are waiting to run/);
      held.destroy();
    });
  },
  { memberImport: { ...DEFAULTS, maxQueued: 1 } },
);

describeEachDialect(
  'member import uploads: how long one may take',
  (api) => {
    const port = listening(api);

    test('IMPORT_UPLOAD_TIMEOUT_MS: an upload trickled past it is cut off, and its place given back', async () => {
      const trickled = partialUpload(port(), api.newFacility(), 100_000);
      const trickle = setInterval(() => trickled.write('Ann\n'), 100);
      try {
        await eventually('the upload to be received', async () => (await receivingUploads(api)) === 1);
        // Cut off: the connection closes (with a reset, the client still sending).
        await Promise.race([
          new Promise((resolve) => trickled.once('close', resolve)),
          new Promise((_, reject) =>
            setTimeout(() => reject(new Error('timed out waiting for the cut')), 10_000),
          ),
        ]);
      } finally {
        clearInterval(trickle);
      }
      await eventually(
        'an upload to take the place the cut one gave back',
        async () => (await importCsv(api, api.newFacility(), 'first_name\nAnn\n')).status === 200,
      );
      assert.equal(await receivingUploads(api), 0);
    });
  },
  { memberImport: { ...DEFAULTS, uploads: 1, uploadTimeoutMs: 1000 } },
);
