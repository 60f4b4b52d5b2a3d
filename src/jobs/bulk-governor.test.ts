/** The bulk governor's share of the time, on a clock the test moves: no test waits for real. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createBulkGovernor } from './bulk-governor.js';

/** A governor on a clock that moves only when bulk work runs or waits. */
function governed(share: number) {
  let now = 0;
  let requests = false;
  const governor = createBulkGovernor({
    share,
    now: () => now,
    sleep: async (ms) => {
      now += ms;
      // Requests keep arriving while bulk work waits.
      if (requests) governor.noteRequest();
    },
  });
  /** Runs `units` units of `ms` each; with `arriving`, requests arrive all along. */
  const run = async (units: number, ms: number, arriving: boolean) => {
    requests = arriving;
    const started = now;
    for (let i = 0; i < units; i++) {
      if (arriving) governor.noteRequest();
      await governor.turn();
      now += ms;
      governor.spent(ms);
    }
    return now - started;
  };
  return { governor, run };
}

test('while requests arrive, bulk work takes half of the time at most (after one window of credit)', async () => {
  const { governor, run } = governed(0.5);
  const elapsed = await run(40, 50, true);
  const work = 40 * 50;
  // The first window's credit is spent at once, and the last unit's is not paid back: 150 ms between them.
  assert.ok(elapsed >= 2 * work - 150, `${work} ms of work took ${elapsed} ms`);
  assert.ok(governor.waitedMs() >= work - 150, `waited ${governor.waitedMs()} ms`);
});

test('a long unit (a PostgreSQL chunk of a second) is paid back by waiting as long, not longer', async () => {
  const { governor, run } = governed(0.5);
  const elapsed = await run(4, 1000, true);
  assert.ok(elapsed >= 4 * 1000 * 2 - 1100 && elapsed <= 4 * 1000 * 2, `4 s of work took ${elapsed} ms`);
  assert.ok(governor.waitedMs() > 0);
});

test('with no request arriving, bulk work runs freely; with share 100 % it is never held back', async () => {
  const quiet = governed(0.5);
  assert.equal(await quiet.run(40, 50, false), 2000);
  assert.equal(quiet.governor.waitedMs(), 0);
  const unlimited = governed(1);
  assert.equal(await unlimited.run(40, 50, true), 2000);
  assert.equal(unlimited.governor.waitedMs(), 0);
});

test('units of several jobs asked for together are held to the share too, not let through in one turn of the event loop', async () => {
  let now = 0;
  const governor = createBulkGovernor({
    share: 0.5,
    now: () => now,
    sleep: async (ms) => {
      now += ms;
    },
  });
  // A request is read at every turn of the event loop that bulk work leaves free, as on a busy server.
  let working = true;
  const requests = (async () => {
    while (working) {
      governor.noteRequest();
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  const job = async () => {
    for (let i = 0; i < 10; i++) {
      await governor.turn();
      now += 30;
      governor.spent(30);
    }
  };
  await Promise.all(Array.from({ length: 8 }, job));
  working = false;
  await requests;
  const work = 8 * 10 * 30;
  // Held to half of the time: the work and as long again, but for the first window's credit.
  assert.ok(now >= 2 * work - 150, `${work} ms of work of 8 jobs took ${now} ms`);
});
