/**
 * Freeze-day accounting as a property, through the HTTP API: at any moment,
 * in any time zone, two freezes of any length one after the other (across
 * years, leap days included) are planned exactly when each starts on or after
 * today in the facility's zone and, in every calendar year it touches, the
 * days of both together stay within the policy's yearly limit; else the
 * answer is 400 (a start in the past) or 422 freeze_limit_exceeded naming the
 * year. The model counts days with its own calendar arithmetic.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { assertInvalid, assertProblem, describeEachDialect, testClock } from '../../../../test/harness.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const clock = testClock('2026-01-01T00:00:00.000Z');
const DAY_MS = 86_400_000;
/** Zones 25 hours apart at the ends, so that "today" differs by zone at most instants. */
const ZONES = ['Pacific/Kiritimati', 'Asia/Kolkata', 'UTC', 'America/St_Johns', 'Pacific/Pago_Pago'];

/** A date's day number since 1970-01-01, and back: the model's own calendar. */
const dayNumber = (date: string) =>
  Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10)) / DAY_MS;
const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const todayIn = (zone: string, at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(at);

/** Days of [from, to] in each calendar year. */
function daysByYear(from: number, to: number): Map<number, number> {
  const years = new Map<number, number>();
  for (let day = from; day <= to; day++) {
    const year = new Date(day * DAY_MS).getUTCFullYear();
    years.set(year, (years.get(year) ?? 0) + 1);
  }
  return years;
}

const scenario = fc.record({
  /** Any instant of 2027 and 2028 (a leap year). */
  at: fc.integer({ min: Date.UTC(2027, 0, 1), max: Date.UTC(2028, 11, 31, 23, 59) }),
  zone: fc.constantFrom(...ZONES),
  /** The first freeze's start: days from today (before it too), or days around the next 1 January. */
  start: fc.oneof(
    fc.record({ from: fc.constant('today' as const), offset: fc.integer({ min: -2, max: 400 }) }),
    fc.record({ from: fc.constant('new year' as const), offset: fc.integer({ min: -10, max: 10 }) }),
  ),
  days: fc.integer({ min: 1, max: 400 }),
  second: fc.record({ gap: fc.integer({ min: 1, max: 200 }), days: fc.integer({ min: 1, max: 400 }) }),
  /** The limit: just below, at or just above the most days the two take in one year, or any. */
  limit: fc.oneof(
    fc.constantFrom(-1, 0, 1).map((slack) => ({ slack })),
    fc.integer({ min: 0, max: 365 }).map((days) => ({ days })),
  ),
});

/** Days the spans take together in each calendar year. */
function usedByYear(spans: [number, number][]): Map<number, number> {
  const used = new Map<number, number>();
  for (const [from, to] of spans)
    for (const [year, days] of daysByYear(from, to)) used.set(year, (used.get(year) ?? 0) + days);
  return used;
}

describeEachDialect(
  'freezes: the yearly limit, as a property',
  (api) => {
    test('a freeze is planned exactly when it starts today or later and keeps every year it touches within the limit', async () => {
      await fc.assert(
        fc.asyncProperty(scenario, async ({ at, zone, start, days, second, limit: chosen }) => {
          clock.set(new Date(at).toISOString());
          const today = dayNumber(todayIn(zone, clock.now()));
          const newYear = dayNumber(`${new Date(today * DAY_MS).getUTCFullYear() + 1}-01-01`);
          const from = Math.max(today - 2, (start.from === 'today' ? today : newYear) + start.offset);
          const spans: [number, number][] = [[from, from + days - 1]];
          spans.push([spans[0][1] + 1 + second.gap, spans[0][1] + second.gap + second.days]);
          const peak = Math.max(...usedByYear(spans).values());
          const limit = 'days' in chosen ? chosen.days : Math.min(365, Math.max(0, peak + chosen.slack));

          const base = `/admin/facilities/${api.newFacility()}`;
          const policy = await api.patch(`${base}/policy`, {
            timezone: zone,
            max_freeze_days_per_year: limit,
          });
          assert.equal(policy.status, 200, policy.text);
          const member = await api.post(`${base}/members`, { first_name: 'Ann' });
          assert.equal(member.status, 201, member.text);
          const url = `${base}/members/${member.body.id}/freezes`;
          const planned: [number, number][] = [];
          for (const [starts, ends] of spans) {
            const response = await api.post(url, { starts_on: dateOf(starts), ends_on: dateOf(ends) });
            const where = `${zone} at ${clock.now().toISOString()}, limit ${limit}: ${dateOf(starts)}..${dateOf(ends)}`;
            if (starts < today) {
              assertInvalid(response, '/starts_on');
              continue;
            }
            const used = usedByYear([...planned, [starts, ends]]);
            const over = [...daysByYear(starts, ends).keys()].find((year) => (used.get(year) ?? 0) > limit);
            if (over === undefined) {
              assert.equal(response.status, 201, `${where}: ${response.text}`);
              planned.push([starts, ends]);
            } else {
              const problem = assertProblem(response, 422, 'freeze_limit_exceeded');
              assert.match(problem.detail, new RegExp(` in ${over}, `), where);
            }
          }
          const listed = (await api.get(url)).body.freezes.map(
            (f: { starts_on: string; ends_on: string }) => [f.starts_on, f.ends_on],
          );
          assert.deepEqual(
            listed,
            planned.map(([starts, ends]) => [dateOf(starts), dateOf(ends)]),
          );
        }),
        { numRuns: RUNS },
      );
    });
  },
  // Thousands of requests on purpose.
  { rateLimitPerMinute: 0 },
  { now: clock.now },
);
