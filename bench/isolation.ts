/**
 * Issue 37's isolation targets: while a CSV import of ROWS rows and EXPORTS
 * concurrent CSV exports run in one facility (the bulk facility), another
 * facility (the quiet one) keeps
 *   - at least 0.5 × the throughput of its GETs by id without them,
 *   - no 503 on its writes,
 *   - each new event in its feed within 1 s, and at its webhook receiver within 5 s.
 * The service runs as `npm start` runs it (built, WORKERS=1 so that one
 * process holds both facilities; auth off, EXPORTS_PER_KEY raised so that
 * one client address may run the EXPORTS exports). Each round measures the
 * quiet facility alone and then during the bulk work, seconds apart, so the
 * figures printed are ratios against the same round's alone phase; rounds
 * alternate which phase goes first.
 *
 *   npm run bench:isolation -- [--db sqlite|postgres|both] [--rows 50000] [--exports 8]
 *                              [--export-members 20000] [--rounds 2] [--duration 6]
 *
 * An import's time is linear in its rows; a smaller --rows keeps a run short
 * and measures the same contention for as long as the import lasts (the
 * bench says when an import ended before its phase did). The exports are
 * read by curl, each in a process of its own; the reads come from the load
 * generator (bench/load.ts) and the writes, the feed's long polls and the
 * webhook receiver are this process's.
 * ISOLATION_NODE_OPTIONS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) is
 * given to the service as NODE_OPTIONS; ISOLATION_OUTPUT=1 prints its output.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/db/database.js';
import { createTestDatabase, removeSqliteFiles } from '../test/harness.js';
import { buildService, type ServiceProcess, startService } from '../test/service-process.js';
import { runLoad } from './load.js';
import { LARGE_FACILITY, seed } from './seed.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'both' },
    rows: { type: 'string', default: '50000' },
    exports: { type: 'string', default: '8' },
    'export-members': { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '2' },
    duration: { type: 'string', default: '6' },
  },
});
const ROWS = Number(values.rows);
const EXPORTS = Number(values.exports);
const DURATION = Number(values.duration);
const ROUNDS = Number(values.rounds);
const BULK = LARGE_FACILITY;
const FEED_TARGET_MS = 1000;
const RECEIVER_TARGET_MS = 5000;

/** A webhook receiver that notes when each member.created arrives (by the member's id). */
async function startReceiver() {
  const arrivals = new Map<number, number>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      try {
        const message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (message.type === 'member.created') arrivals.set(Number(message.data.id), performance.now());
      } catch {}
      response.writeHead(204).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    arrivals,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Follows the quiet facility's feed by long polls, noting when each member.created is first seen. */
function followFeed(service: ServiceProcess, facility: number, cursor: string) {
  const seen = new Map<number, number>();
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const query = `after=${cursor}&wait=2&limit=1000&types=member.created`;
      const response = await fetch(`${service.baseUrl}/admin/facilities/${facility}/events?${query}`);
      if (response.status !== 200) {
        await response.body?.cancel();
        await sleep(50);
        continue;
      }
      const page = (await response.json()) as { events: { data: { id: number } }[]; next_cursor: string };
      const at = performance.now();
      for (const event of page.events) if (!seen.has(event.data.id)) seen.set(event.data.id, at);
      cursor = page.next_cursor;
    }
  })();
  return {
    seen,
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}

async function feedCursor(service: ServiceProcess, facility: number): Promise<string> {
  let cursor: string | undefined;
  for (;;) {
    const query = cursor === undefined ? 'limit=1000' : `after=${cursor}&limit=1000`;
    const page = (await (
      await fetch(`${service.baseUrl}/admin/facilities/${facility}/events?${query}`)
    ).json()) as { events: unknown[]; next_cursor: string };
    cursor = page.next_cursor;
    if (page.events.length === 0) return cursor;
  }
}

/** Creates members of the quiet facility one after another until stopped: what each answered, and when. */
function writeMembers(service: ServiceProcess, facility: number, phase: string) {
  const created: { id: number; at: number }[] = [];
  const statuses = new Map<number, number>();
  let stopped = false;
  const done = (async () => {
    for (let i = 0; !stopped; i++) {
      const response = await fetch(`${service.baseUrl}/admin/facilities/${facility}/members`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ first_name: 'Quiet', last_name: `${phase}-${i}` }),
      });
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      const body = (await response.json()) as { id?: number };
      if (response.status === 201 && body.id !== undefined)
        created.push({ id: body.id, at: performance.now() });
      await sleep(100);
    }
  })();
  return {
    created,
    statuses,
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}

/** The bulk work: one import (a job) and EXPORTS exports, each export read to its end and started again. */
function startBulk(service: ServiceProcess, round: number) {
  let stopped = false;
  let exportsDone = 0;
  let exportFailures = 0;
  // Each export is read by curl, in a process of its own: the bytes of eight exports read in this
  // process would take the CPU that the load generator, in this process too, needs.
  const exporting = Array.from({ length: EXPORTS }, async () => {
    while (!stopped) {
      const curl = spawn('curl', [
        '-s',
        '-o',
        '/dev/null',
        '-w',
        '%{http_code}',
        `${service.baseUrl}/admin/facilities/${BULK}/members/export.csv`,
      ]);
      let status = '';
      curl.stdout.on('data', (chunk) => {
        status += chunk;
      });
      await once(curl, 'close');
      if (status === '200') exportsDone++;
      else exportFailures++;
    }
  });
  const csv = `external_id;first_name;email\n${Array.from(
    { length: ROWS },
    (_, i) => `R${round}-${i};Bulk${i};bulk${i}.r${round}@example.com`,
  ).join('\n')}\n`;
  const importing = (async () => {
    const started = performance.now();
    const upload = await fetch(`${service.baseUrl}/admin/facilities/${BULK}/members/import?on_error=skip`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body: csv,
    });
    await upload.arrayBuffer();
    if (upload.status !== 202) throw new Error(`the import was answered ${upload.status}`);
    const location = `${service.baseUrl}${upload.headers.get('location')}`;
    for (;;) {
      const job = (await (await fetch(location)).json()) as { state: string };
      if (job.state === 'succeeded' || job.state === 'failed') return (performance.now() - started) / 1000;
      await sleep(250);
    }
  })();
  let importSeconds: number | undefined;
  importing.then((seconds) => {
    importSeconds = seconds;
  });
  return {
    importRunning: () => importSeconds === undefined,
    /** Stops the exports, waits for the import; its seconds, and the exports' count. */
    stop: async () => {
      stopped = true;
      await Promise.all(exporting);
      return { importSeconds: await importing, exportsDone, exportFailures };
    },
  };
}

interface Phase {
  reads: number;
  writes: number;
  unavailable: number;
  otherFailures: number;
  feedMs: number[];
  receiverMs: number[];
}

async function measurePhase(
  service: ServiceProcess,
  quiet: number,
  ids: number[],
  receiver: Awaited<ReturnType<typeof startReceiver>>,
  name: string,
): Promise<Phase> {
  const feed = followFeed(service, quiet, await feedCursor(service, quiet));
  const writer = writeMembers(service, quiet, name);
  const reads = ids.map((id) => ({ method: 'GET', path: `/admin/facilities/${quiet}/members/${id}` }));
  const load = await runLoad({
    url: service.baseUrl,
    requests: reads,
    headers: {},
    connections: 8,
    duration: DURATION,
    warmup: 1,
  });
  await writer.stop();
  // The last event has RECEIVER_TARGET_MS to arrive; later ones count as that, late.
  await sleep(RECEIVER_TARGET_MS);
  await feed.stop();
  const late = (at: number | undefined, created: number, bound: number) =>
    at === undefined ? bound * 2 : at - created;
  const unavailable = writer.statuses.get(503) ?? 0;
  let writes = 0;
  for (const count of writer.statuses.values()) writes += count;
  return {
    reads: load.rps,
    writes,
    unavailable,
    otherFailures: writes - unavailable - (writer.statuses.get(201) ?? 0) + load.errors,
    feedMs: writer.created.map(({ id, at }) => late(feed.seen.get(id), at, FEED_TARGET_MS)),
    receiverMs: writer.created.map(({ id, at }) => late(receiver.arrivals.get(id), at, RECEIVER_TARGET_MS)),
  };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
};
const ms = (value: number) => `${Math.round(value)} ms`;

async function benchDialect(dialect: 'sqlite' | 'postgres') {
  const file = join(tmpdir(), `facility-admin-isolation-${process.pid}.db`);
  const test = dialect === 'postgres' ? await createTestDatabase('postgres') : undefined;
  const url = test?.url ?? `sqlite:${file}`;
  const receiver = await startReceiver();
  let service: ServiceProcess | undefined;
  try {
    const database = openDatabase(url);
    const seeded = await seed(database, Number(values['export-members']), 1);
    await database.close();
    const quiet = seeded.smallFacilities[0];
    const [first, last] = seeded.smallMemberIdRange;
    const ids = Array.from({ length: 200 }, (_, i) => first + Math.floor((i * (last - first)) / 200));
    service = await startService(url, {
      asNpmStart: true,
      env: {
        WORKERS: '1',
        EXPORTS_PER_KEY: String(Math.max(1, EXPORTS)),
        EXPORT_CONCURRENCY: String(Math.max(8, EXPORTS)),
        WEBHOOK_ALLOW_HTTP: 'true',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        SECRETS_KEY: randomBytes(32).toString('hex'),
        LOG_LEVEL: 'error',
        ...(process.env.ISOLATION_NODE_OPTIONS ? { NODE_OPTIONS: process.env.ISOLATION_NODE_OPTIONS } : {}),
      },
    });
    const endpoint = await fetch(`${service.baseUrl}/admin/facilities/${quiet}/webhook-endpoints`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, types: ['member.created'] }),
    });
    if (endpoint.status !== 201)
      throw new Error(`webhook endpoint: ${endpoint.status} ${await endpoint.text()}`);
    console.log(
      `\n## ${dialect}: bulk facility ${BULK} (${Number(values['export-members']).toLocaleString()} members exported, ` +
        `${ROWS.toLocaleString()} rows imported a round, ${EXPORTS} exports), quiet facility ${quiet}; ` +
        `${DURATION} s a phase, ${ROUNDS} rounds`,
    );
    // Untimed: every path once (JIT, caches).
    await measurePhase(service, quiet, ids, receiver, 'warm-up');

    const rows: { alone: Phase; during: Phase }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const measureAlone = () =>
        measurePhase(service as ServiceProcess, quiet, ids, receiver, `alone-${round}`);
      const measureDuring = async () => {
        const bulk = startBulk(service as ServiceProcess, round);
        // The import's upload and first chunks, and every export, under way.
        await sleep(1000);
        const phase = await measurePhase(service as ServiceProcess, quiet, ids, receiver, `during-${round}`);
        const running = bulk.importRunning();
        const { importSeconds, exportsDone, exportFailures } = await bulk.stop();
        console.log(
          `  round ${round + 1}: the import ran ${importSeconds.toFixed(1)} s${running ? '' : ' (ENDED BEFORE THE PHASE DID)'}; ` +
            `${exportsDone} exports read to their end, ${exportFailures} refused`,
        );
        return phase;
      };
      const alone = round % 2 === 0 ? await measureAlone() : undefined;
      const during = await measureDuring();
      rows.push({ alone: alone ?? (await measureAlone()), during });
    }

    console.log(
      '\n| round | GETs by id/s alone | during | × alone | writes (503s, other failures) alone | during | feed p50 / max alone | during | receiver p50 / max alone | during |',
    );
    console.log('|---|---:|---:|---:|---|---|---|---|---|---|');
    rows.forEach(({ alone, during }, round) => {
      const writes = (p: Phase) => `${p.writes} (${p.unavailable}, ${p.otherFailures})`;
      const spread = (values: number[]) => `${ms(percentile(values, 0.5))} / ${ms(Math.max(...values))}`;
      console.log(
        `| ${round + 1} | ${Math.round(alone.reads)} | ${Math.round(during.reads)} | ${(during.reads / alone.reads).toFixed(2)} ` +
          `| ${writes(alone)} | ${writes(during)} | ${spread(alone.feedMs)} | ${spread(during.feedMs)} ` +
          `| ${spread(alone.receiverMs)} | ${spread(during.receiverMs)} |`,
      );
    });
    const ratios = rows.map(({ alone, during }) => during.reads / alone.reads);
    const ratio = percentile(ratios, 0.5);
    const unavailable = rows.reduce((sum, { during }) => sum + during.unavailable, 0);
    const feedMax = Math.max(...rows.flatMap(({ during }) => during.feedMs));
    const receiverMax = Math.max(...rows.flatMap(({ during }) => during.receiverMs));
    const line = (met: boolean, text: string) => console.log(`  ${met ? 'met    ' : 'NOT met'}  ${text}`);
    console.log(`\ntargets of issue 37 (${dialect}):`);
    line(
      ratio >= 0.5,
      `GETs by id ≥ 0.5 × alone: ${ratio.toFixed(2)} × (median of ${ratios.map((r) => r.toFixed(2)).join(', ')})`,
    );
    line(unavailable === 0, `writes get no 503: ${unavailable}`);
    line(feedMax <= FEED_TARGET_MS, `a new event in the feed within 1 s: at most ${ms(feedMax)}`);
    line(
      receiverMax <= RECEIVER_TARGET_MS,
      `a new event at the receiver within 5 s: at most ${ms(receiverMax)}`,
    );
  } finally {
    if (process.env.ISOLATION_OUTPUT) console.log(service?.output());
    await service?.kill();
    await receiver.close();
    await test?.drop();
    removeSqliteFiles(file);
  }
}

buildService();
const dialects =
  values.db === 'both' ? (['sqlite', 'postgres'] as const) : [values.db as 'sqlite' | 'postgres'];
for (const dialect of dialects) await benchDialect(dialect);
