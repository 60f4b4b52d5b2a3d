/**
 * The feed's cursor under concurrent writers: it never skips an event whose
 * transaction commits after later ones (PostgreSQL), and a long poll answers
 * as soon as an event arrives.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeEachDialect } from '../../../test/harness.js';
import type { WriteContext } from '../../core/write-context.js';
import type { Db, Trx } from '../../db/database.js';
import { recordAuditEvent } from '../audit/audit.service.js';
import { feedSettled } from './events.fixtures.js';

const f = (facility: number) => `/admin/facilities/${facility}`;
const context: WriteContext = {
  actor: { keyId: null, keyName: 'test', role: 'admin', facilityIds: 'all' },
  requestId: 'feed-test',
};

/** A policy change recorded through the one path every write takes, in the given transaction. */
async function recordChange(trx: Trx, facility: number, marker: number): Promise<void> {
  await recordAuditEvent(trx, context, {
    facilityId: facility,
    resourceType: 'policy',
    resourceId: facility,
    action: 'update',
    before: { facility_id: facility, max_active_bookings: marker - 1 },
    after: { facility_id: facility, max_active_bookings: marker },
  });
}

/** A transaction held open until `release` is called; its work runs first. */
function openTransaction(db: Db, work: (trx: Trx) => Promise<void>) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let started!: () => void;
  const ready = new Promise<void>((resolve) => {
    started = resolve;
  });
  const done = db.transaction().execute(async (trx) => {
    await work(trx);
    started();
    await released;
  });
  return { ready, release, done };
}

describeEachDialect('events: the feed under concurrent writers', (api) => {
  const read = async (facility: number, after: string | undefined, query = '') => {
    const cursor = after === undefined ? '' : `&after=${after}`;
    const response = await api.get(`${f(facility)}/events?limit=1000${cursor}${query}`);
    assert.equal(response.status, 200, response.text);
    return response.body as { events: { data: { max_active_bookings: number } }[]; next_cursor: string };
  };
  const markers = (page: Awaited<ReturnType<typeof read>>) =>
    page.events.map((event) => event.data.max_active_bookings);

  test('an event whose transaction commits after a later one is not skipped by a cursor read in between', async (t) => {
    if (api.dialect !== 'postgres') return t.skip('SQLite has one writer: commit order is id order');
    const facility = api.newFacility();
    // The first transaction takes its event's place in the id sequence, then waits.
    const slow = openTransaction(api.app.db, (trx) => recordChange(trx, facility, 1));
    await slow.ready;
    const fast = openTransaction(api.app.db, (trx) => recordChange(trx, facility, 2));
    await fast.ready;
    fast.release();
    await fast.done;
    // The second is committed, but an event of the first could still come before it: the feed holds it back.
    const first = await read(facility, undefined);
    assert.deepEqual(markers(first), []);
    slow.release();
    await slow.done;
    await feedSettled(api.app.db);
    const second = await read(facility, first.next_cursor);
    assert.deepEqual(markers(second), [1, 2]);
  });

  test('a transaction that began writing first but records its event last is not skipped', async (t) => {
    if (api.dialect !== 'postgres') return t.skip('SQLite has one writer: commit order is id order');
    const facility = api.newFacility();
    let slowTrx!: Trx;
    // It takes its transaction id with a first write; it records its event only after the other committed.
    const slow = openTransaction(api.app.db, async (trx) => {
      slowTrx = trx;
      await trx
        .insertInto('periodic_jobs')
        .values({ name: `feed-test-${facility}`, next_run_at: new Date().toISOString() })
        .execute();
    });
    await slow.ready;
    const fast = openTransaction(api.app.db, (trx) => recordChange(trx, facility, 2));
    await fast.ready;
    fast.release();
    await fast.done;
    const first = await read(facility, undefined);
    assert.deepEqual(markers(first), [], 'held back while an older transaction runs');
    await recordChange(slowTrx, facility, 1);
    slow.release();
    await slow.done;
    await feedSettled(api.app.db);
    // Both follow the cursor, in the order of their transactions.
    assert.deepEqual(markers(await read(facility, first.next_cursor)), [1, 2]);
  });

  test('concurrent writers committing in any order: a reader following the cursor sees every event once', async () => {
    const facility = api.newFacility();
    const writers = 40;
    let writing = true;
    const seen: number[] = [];
    const reader = (async () => {
      let cursor: string | undefined;
      for (;;) {
        // Decided before the read: a read that began while writers ran may miss their last commits.
        const lastRead = !writing;
        if (lastRead) await feedSettled(api.app.db);
        const page = await read(facility, cursor);
        seen.push(...markers(page));
        cursor = page.next_cursor;
        if (lastRead && page.events.length === 0) break;
        await sleep(2);
      }
    })();
    await Promise.all(
      Array.from({ length: writers }, (_, i) =>
        api.app.db.transaction().execute(async (trx) => {
          await sleep(Math.random() * 5);
          await recordChange(trx, facility, i + 1);
          // Held open a random while after the event took its id: commits land out of id order.
          await sleep(Math.random() * 30);
        }),
      ),
    );
    writing = false;
    await reader;
    assert.equal(seen.length, writers, `every event once: ${seen.join(',')}`);
    assert.deepEqual(
      [...seen].sort((a, b) => a - b),
      Array.from({ length: writers }, (_, i) => i + 1),
    );
  });

  test('wait holds an empty read until an event arrives, then answers at once', async () => {
    const facility = api.newFacility();
    const start = await read(facility, undefined);
    const started = Date.now();
    const waiting = api.get(`${f(facility)}/events?wait=10&after=${start.next_cursor}`);
    await sleep(300);
    await api.patch(`${f(facility)}/policy`, { max_active_bookings: 7 });
    const answer = await waiting;
    const took = Date.now() - started;
    assert.equal(answer.status, 200);
    assert.deepEqual(
      answer.body.events.map((event: { type: string }) => event.type),
      ['policy.updated'],
    );
    assert.ok(took >= 300 && took < 2000, `answered after ${took} ms`);
  });

  test('wait answers an empty page with the same cursor when nothing arrives', async () => {
    const facility = api.newFacility();
    const started = Date.now();
    const answer = await api.get(`${f(facility)}/events?wait=1`);
    assert.deepEqual(answer.body.events, []);
    assert.ok(Date.now() - started >= 950);
  });
});

describeEachDialect(
  'events: a long poll over a real connection',
  (api) => {
    test('a wait longer than STALL_TIMEOUT_MS is answered, not cut off', async () => {
      await api.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = api.app.server.address() as import('node:net').AddressInfo;
      const started = Date.now();
      const response = await fetch(
        `http://127.0.0.1:${port}/admin/facilities/${api.newFacility()}/events?wait=2`,
      );
      assert.equal(response.status, 200);
      assert.deepEqual((await response.json()).events, []);
      assert.ok(Date.now() - started >= 1900);
    });
  },
  { stallTimeoutMs: 1000 },
);
