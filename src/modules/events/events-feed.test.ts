/**
 * The feed's order is each facility's commit order, on both engines: a cursor
 * never skips an event whose transaction commits after later ones, applying
 * the feed in order gives the final state, and one facility's long
 * transaction holds no other facility's feed back. Long polls:
 * events-feed-wait.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeEachDialect } from '../../../test/harness.js';
import { servicePrincipal } from '../../core/principal.js';
import type { WriteContext } from '../../core/write-context.js';
import type { Db, Trx } from '../../db/database.js';
import { inWriteTransaction, journalChange } from '../../journal/journal.js';

const f = (facility: number) => `/admin/facilities/${facility}`;
const context: WriteContext = {
  principal: servicePrincipal('test'),
  requestId: 'feed-test',
  now: new Date(),
};

/** A policy change journaled through the one path every write takes, in the given transaction. */
function recordChange(trx: Trx, facility: number, marker: number): void {
  journalChange(trx, context, {
    facilityId: facility,
    resourceType: 'policy',
    resourceId: facility,
    action: 'update',
    before: { facility_id: facility, max_active_bookings: marker - 1 },
    after: { facility_id: facility, max_active_bookings: marker },
  });
}

/** A write transaction held open until `release` is called; its work runs first. */
function openTransaction(db: Db, work: (trx: Trx) => Promise<void> | void) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let started!: () => void;
  const ready = new Promise<void>((resolve) => {
    started = resolve;
  });
  const done = inWriteTransaction(db, async (trx) => {
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
    return response.body as {
      events: { id: number; type: string; data: Record<string, unknown> }[];
      next_cursor: string;
    };
  };
  const markers = (page: Awaited<ReturnType<typeof read>>) =>
    page.events.map((event) => event.data.max_active_bookings);

  test('concurrent PATCHes of one member: the feed applied in order gives the member as it reads', async () => {
    const facility = api.newFacility();
    const member = await api.post(`${f(facility)}/members`, { first_name: 'Race' });
    const start = await read(facility, undefined);
    const patches = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api.patch(`${f(facility)}/members/${member.body.id}`, { notes: `race-${i}` }),
      ),
    );
    assert.ok(patches.every((patch) => patch.status === 200));
    const final = (await api.get(`${f(facility)}/members/${member.body.id}`)).body;
    let applied: Record<string, unknown> = member.body;
    for (const event of (await read(facility, start.next_cursor)).events) applied = event.data;
    assert.equal(applied.notes, final.notes);
    assert.equal(applied.updated_at, final.updated_at);
  });

  test('an event whose transaction commits after a later one comes after it, and a cursor read in between does not skip it', async (t) => {
    if (api.dialect !== 'postgres')
      return t.skip(
        'SQLite runs one write transaction at a time: a second cannot commit while the first is open',
      );
    const facility = api.newFacility();
    // The first write journals its change and then waits before committing.
    const slow = openTransaction(api.app.db, (trx) => recordChange(trx, facility, 1));
    await slow.ready;
    const fast = openTransaction(api.app.db, (trx) => recordChange(trx, facility, 2));
    await fast.ready;
    fast.release();
    await fast.done;
    const first = await read(facility, undefined);
    assert.deepEqual(markers(first), [2], 'the committed event is readable at once');
    slow.release();
    await slow.done;
    assert.deepEqual(markers(await read(facility, first.next_cursor)), [1]);
  });

  test("another facility's long transaction holds no event back", async (t) => {
    if (api.dialect !== 'postgres')
      return t.skip(
        'SQLite runs one write transaction at a time: a second cannot commit while the first is open',
      );
    const busy = api.newFacility();
    const facility = api.newFacility();
    // A long write that has taken its transaction id, as an import's chunk would.
    const long = openTransaction(api.app.db, async (trx) => {
      await trx
        .insertInto('periodic_jobs')
        .values({ name: `feed-test-${busy}`, next_run_at: new Date().toISOString() })
        .execute();
      recordChange(trx, busy, 1);
    });
    await long.ready;
    await api.patch(`${f(facility)}/policy`, { max_active_bookings: 9 });
    assert.deepEqual(markers(await read(facility, undefined)), [9]);
    long.release();
    await long.done;
    assert.deepEqual(markers(await read(busy, undefined)), [1]);
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
        const page = await read(facility, cursor);
        seen.push(...(markers(page) as number[]));
        cursor = page.next_cursor;
        if (lastRead && page.events.length === 0) break;
        await sleep(2);
      }
    })();
    await Promise.all(
      Array.from({ length: writers }, (_, i) =>
        inWriteTransaction(api.app.db, async (trx) => {
          await sleep(Math.random() * 5);
          recordChange(trx, facility, i + 1);
          // Held open a random while after the change was journaled: commits land in any order.
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
});
