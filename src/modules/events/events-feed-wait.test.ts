/**
 * Long polls of the feed (`wait`): an empty read is held until an event
 * arrives and then answered with it; with nothing arriving it ends with an
 * empty page and the cursor it was sent; past EVENTS_MAX_WAITERS a read that
 * would wait is 429; over a real connection a wait longer than
 * STALL_TIMEOUT_MS is answered, not cut off. A read is known to be held when
 * the one waiter EVENTS_MAX_WAITERS allows is taken (another waiting read is
 * 429), not by timing it; how long a wake-up takes is the benchmark's to say.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { before, test } from 'node:test';
import { eventually } from '../../../test/eventually.js';
import { type Api, assertProblem, describeEachDialect, type TestResponse } from '../../../test/harness.js';

const f = (facility: number) => `/admin/facilities/${facility}`;
/**
 * The real connection's stall timeout, and a wait of twice as long. Not
 * shorter: the stall timeout also runs before the read is admitted and after
 * its wait, and on a machine busy with other test runs a second there passes.
 */
const STALL_TIMEOUT_MS = 2000;
const WAIT_S = (2 * STALL_TIMEOUT_MS) / 1000;

/** A facility whose feed has an event: a read with `wait` of it is answered at once, unless refused. */
function probeOf(api: Api) {
  let facility = 0;
  before(async () => {
    facility = api.newFacility();
    assert.equal((await api.patch(`${f(facility)}/policy`, { currency: 'EUR' })).status, 200);
  });
  return {
    /** The answer of a read that would wait: 429 while the one waiter allowed is taken. */
    read: () => api.get(`${f(facility)}/events?wait=1`),
    /** True once another read holds the one waiter allowed. */
    held: async () => (await api.get(`${f(facility)}/events?wait=1`)).status === 429,
  };
}

/** A GET over a real connection, and once it has ended, its status (undefined: the connection failed). */
function sent(url: string) {
  const state: { response: Promise<Response>; outcome?: { status?: number } } = { response: fetch(url) };
  state.response.then(
    (response) => {
      state.outcome = { status: response.status };
    },
    () => {
      state.outcome = {};
    },
  );
  return state;
}

/** A request whose answer the test looks at later, and whether it has come. */
function pending(request: Promise<TestResponse>) {
  const state: { answer?: TestResponse } = {};
  void request.then((answer) => {
    state.answer = answer;
  });
  return state;
}

describeEachDialect(
  'events: long polls',
  (api) => {
    const probe = probeOf(api);
    const cursorOf = async (facility: number) => (await api.get(`${f(facility)}/events`)).body.next_cursor;

    test('wait holds an empty read until an event arrives, then answers with it', async () => {
      const facility = api.newFacility();
      const cursor = await cursorOf(facility);
      const waiting = pending(api.get(`${f(facility)}/events?wait=30&after=${cursor}`));
      await eventually('the read held, waiting', probe.held);
      assert.equal(waiting.answer, undefined, 'held, not answered');
      await api.patch(`${f(facility)}/policy`, { max_active_bookings: 7 });
      // Far sooner than its 30 s wait: the event wakes it.
      const answer = await eventually('the held read answered', () => waiting.answer, 10_000);
      assert.equal(answer.status, 200);
      assert.deepEqual(
        answer.body.events.map((event: { type: string }) => event.type),
        ['policy.updated'],
      );
    });

    test('wait answers an empty page with the cursor it was sent when nothing arrives', async () => {
      const facility = api.newFacility();
      await api.patch(`${f(facility)}/policy`, { max_active_bookings: 3 });
      const cursor = await cursorOf(facility);
      const answer = await api.get(`${f(facility)}/events?wait=1&after=${cursor}`);
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body, { events: [], next_cursor: cursor });
    });

    test('past EVENTS_MAX_WAITERS a read that would wait is 429 rate_limited with Retry-After; one that would not is served', async () => {
      const facility = api.newFacility();
      const waiting = pending(api.get(`${f(facility)}/events?wait=30&after=${await cursorOf(facility)}`));
      await eventually('the one waiter allowed taken', probe.held);
      const refused = await probe.read();
      assertProblem(refused, 429, 'rate_limited');
      assert.equal(refused.headers['retry-after'], '1');
      assert.equal((await api.get(`${f(facility)}/events`)).status, 200, 'a read without wait is served');
      await api.patch(`${f(facility)}/policy`, { max_active_bookings: 4 });
      await eventually('the held read answered', () => waiting.answer, 10_000);
      assert.equal((await probe.read()).status, 200, 'the waiter freed');
    });
  },
  { eventsMaxWaiters: 1 },
);

describeEachDialect(
  'events: a long poll over a real connection',
  (api) => {
    const probe = probeOf(api);

    test('a wait longer than STALL_TIMEOUT_MS is answered, not cut off', async () => {
      await api.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = api.app.server.address() as AddressInfo;
      const facility = api.newFacility();
      const url = `http://127.0.0.1:${port}${f(facility)}/events?wait=${WAIT_S}`;
      // The probe's own reads take the one waiter allowed for a moment (across their database read on
      // PostgreSQL): a read that comes just then is refused (429, its connection closed), and is sent again.
      let read = sent(url);
      await eventually('the read held, waiting', async () => {
        if (read.outcome !== undefined) {
          const { status } = read.outcome;
          if (status !== 429 && status !== undefined)
            throw new Error(`answered ${status} before it was seen waiting`);
          read = sent(url);
          return false;
        }
        return probe.held();
      });
      // Held twice the stall timeout on a connection that moves no byte: an empty page ends the wait.
      const answer = await read.response;
      assert.equal(answer.status, 200);
      assert.deepEqual((await answer.json()).events, []);
    });
  },
  { stallTimeoutMs: STALL_TIMEOUT_MS, eventsMaxWaiters: 1 },
);
