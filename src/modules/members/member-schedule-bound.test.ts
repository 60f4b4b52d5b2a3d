/**
 * The schedule job's bound (docs/decisions.md, "The schedule job's bound"):
 * a member's status is right within a minute after the facility's midnight,
 * on one process or many, and a process that starts catches up at once.
 * Two job runners, as two processes run them, share one database (one
 * SQLite file, one PostgreSQL database); time is the test clock's, and the
 * runners wait on timers the test fires as the clock passes them, so a day's
 * minutes pass without sleeping. The runners' jitter is their own.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { createTestDatabase, DIALECTS, type TestClock, testClock } from '../../../test/harness.js';
import { type App, buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { type Database, openDatabase } from '../../db/database.js';
import { type JobRunner, type JobTimers, latestRunAfterMs, startJobs } from '../../jobs/job-runner.js';
import { applyMemberSchedule } from './member-schedule.job.js';

const log = pino({ level: 'silent' });

/** Timers on the test clock: `advanceTo` fires each wait on its time, and lets the look it starts end. */
function clockTimers(clock: TestClock) {
  const waits = new Set<{ at: number; look: () => void }>();
  let waited: (() => void) | undefined;
  const timers: JobTimers = {
    after(ms, look) {
      const wait = { at: clock.now().getTime() + ms, look };
      waits.add(wait);
      waited?.();
      return () => waits.delete(wait);
    },
  };
  /** Resolves when a runner waits again: its look (a claim, perhaps a run) has ended. */
  const nextWait = () => new Promise<void>((resolve) => (waited = resolve));
  return {
    timers,
    nextWait,
    async advanceTo(iso: string) {
      const end = Date.parse(iso);
      for (;;) {
        const next = [...waits].sort((a, b) => a.at - b.at)[0];
        if (next === undefined || next.at > end) break;
        waits.delete(next);
        clock.set(new Date(next.at).toISOString());
        const looked = nextWait();
        next.look();
        await looked;
      }
      clock.set(iso);
    },
  };
}

for (const dialect of DIALECTS) {
  describe(`the schedule job's bound [${dialect}]`, () => {
    const clock = testClock('2026-06-29T12:00:00.000Z');
    const time = clockTimers(clock);
    const databases: Database[] = [];
    let app: App;
    let drop: () => Promise<void> = async () => {};

    before(async () => {
      const created = await createTestDatabase(dialect, { sqliteOnDisk: true });
      drop = created.drop;
      databases.push(openDatabase(created.url), openDatabase(created.url));
      const config = { ...loadConfig({}), databaseUrl: created.url, authMode: 'none' as const };
      app = await buildApp(config, { database: databases[0], logger: false, now: clock.now });
    });

    after(async () => {
      await app.close();
      for (const database of databases) await database.close();
      await drop();
    });

    /** Two processes' runners of the schedule job, each having looked once (at its start). */
    async function startRunners(count: number): Promise<JobRunner[]> {
      const runners: JobRunner[] = [];
      for (let i = 0; i < count; i++) {
        const looked = time.nextWait();
        runners.push(startJobs(databases[i].db, [applyMemberSchedule], log, clock.now, time.timers));
        await looked;
      }
      return runners;
    }

    /** A facility with a member whose freeze starts on 1 July and one whose term ends on 30 June. */
    async function facilityIn(facility: number, timezone: string) {
      const url = `/admin/facilities/${facility}`;
      assert.equal(
        (await app.inject({ method: 'PATCH', url: `${url}/policy`, payload: { timezone } })).statusCode,
        200,
      );
      const member = async (payload: object) => {
        const created = await app.inject({ method: 'POST', url: `${url}/members`, payload });
        assert.equal(created.statusCode, 201, created.body);
        return `${url}/members/${created.json().id}`;
      };
      const freezing = await member({ first_name: 'Freezing' });
      const freeze = await app.inject({
        method: 'POST',
        url: `${freezing}/freezes`,
        payload: { starts_on: '2026-07-01', ends_on: '2026-07-03' },
      });
      assert.equal(freeze.statusCode, 201, freeze.body);
      return { facility, members: [freezing, await member({ first_name: 'Ending', ends_on: '2026-06-30' })] };
    }

    const statuses = async (members: string[]) =>
      Promise.all(
        members.map(async (url) => {
          const member = (await app.inject({ method: 'GET', url })).json();
          return `${member.status}:${member.status_reason}`;
        }),
      );

    /** When the schedule changed the facility's members (the audit trail's `system` entries). */
    const changedAt = async (facility: number) =>
      (
        await app.inject({
          method: 'GET',
          url: `/admin/facilities/${facility}/audit-events?resource_type=member`,
        })
      )
        .json()
        .audit_events.filter((entry: { api_key_name: string }) => entry.api_key_name === 'system')
        .map((entry: { occurred_at: string }) => entry.occurred_at);

    test('the job is due often enough for the bound, with room for the runs', () => {
      assert.ok(
        latestRunAfterMs(applyMemberSchedule) <= 45_000,
        String(latestRunAfterMs(applyMemberSchedule)),
      );
    });

    test("two processes: each member's status is right within a minute after its facility's midnight", async () => {
      clock.set('2026-06-29T12:00:00.000Z');
      // Midnight starting 1 July: 18:15 UTC in Kathmandu (UTC+5:45), 18:30 UTC in Kolkata (UTC+5:30).
      const facilities = [
        { ...(await facilityIn(1, 'Asia/Kathmandu')), midnight: '2026-06-30T18:15:00.000Z' },
        { ...(await facilityIn(2, 'Asia/Kolkata')), midnight: '2026-06-30T18:30:00.000Z' },
      ];
      clock.set('2026-06-30T18:10:00.000Z');
      const runners = await startRunners(2);
      try {
        for (const { facility, members, midnight } of facilities) {
          const at = Date.parse(midnight);
          await time.advanceTo(new Date(at - 1).toISOString());
          assert.deepEqual(
            await statuses(members),
            ['active:null', 'active:null'],
            `${facility} before midnight`,
          );
          await time.advanceTo(new Date(at + 60_000).toISOString());
          assert.deepEqual(
            await statuses(members),
            ['frozen:freeze_started', 'cancelled:expired'],
            `${facility} a minute after midnight`,
          );
          const changes = await changedAt(facility);
          assert.equal(changes.length, 2, 'each change made once');
          for (const occurred of changes) {
            assert.ok(occurred >= midnight && Date.parse(occurred) <= at + 60_000, occurred);
          }
        }
      } finally {
        await Promise.all(runners.map((runner) => runner.stop()));
      }
      const runs = runners.map((runner) => runner.stats()[0].runs);
      assert.ok(runs[0] + runs[1] >= 2, `the processes ran ${runs}`);
    });

    test('a process that starts catches up at once on what fell due while none ran', async () => {
      clock.set('2026-07-01T12:00:00.000Z');
      const url = '/admin/facilities/3';
      const created = await app.inject({
        method: 'POST',
        url: `${url}/members`,
        payload: { first_name: 'Away', ends_on: '2026-07-10' },
      });
      const member = `${url}/members/${created.json().id}`;
      const freeze = await app.inject({
        method: 'POST',
        url: `${member}/freezes`,
        payload: { starts_on: '2026-07-03', ends_on: '2026-07-05' },
      });
      assert.equal(freeze.statusCode, 201, freeze.body);
      clock.set('2026-07-20T08:00:00.000Z');
      assert.deepEqual(await statuses([member]), ['active:null'], 'no process ran meanwhile');
      const [runner] = await startRunners(1);
      await runner.stop();
      assert.deepEqual(await statuses([member]), ['cancelled:expired']);
      const [ended] = (await app.inject({ method: 'GET', url: `${member}/freezes` })).json().freezes;
      assert.equal(ended.ends_on, '2026-07-05');
      assert.deepEqual(await changedAt(3), ['2026-07-20T08:00:00.000Z']);
      // The facilities of the test before: their freezes ended on 3 July.
      assert.deepEqual(await statuses((await facilityMembers(1)).slice(0, 1)), ['active:freeze_ended']);
    });

    const facilityMembers = async (facility: number) =>
      (await app.inject({ method: 'GET', url: `/admin/facilities/${facility}/members` }))
        .json()
        .members.map((member: { id: number }) => `/admin/facilities/${facility}/members/${member.id}`);
  });
}
