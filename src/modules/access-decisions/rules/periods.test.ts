/** periodOf: the facility's days, weeks and months as instants, local midnight to local midnight. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { todayIn } from '../../../core/dates.js';
import { WEEKDAYS } from '../../policy/policy-door.schemas.js';
import { periodOf } from './periods.js';

const HOUR = 3_600_000;
const iso = (period: { startsAt: Date; endsAt: Date }) => [
  period.startsAt.toISOString(),
  period.endsAt.toISOString(),
];
const hours = (period: { startsAt: Date; endsAt: Date }) =>
  (period.endsAt.getTime() - period.startsAt.getTime()) / HOUR;

test('a day starts at local midnight: 23:59 is the day before, 00:01 the day after', () => {
  // Berlin in June is UTC+2: local midnight of 16 June is 22:00 UTC on 15 June.
  assert.deepEqual(iso(periodOf('day', new Date('2026-06-15T21:59:00Z'), 'Europe/Berlin', 'monday')), [
    '2026-06-14T22:00:00.000Z',
    '2026-06-15T22:00:00.000Z',
  ]);
  assert.deepEqual(iso(periodOf('day', new Date('2026-06-15T22:01:00Z'), 'Europe/Berlin', 'monday')), [
    '2026-06-15T22:00:00.000Z',
    '2026-06-16T22:00:00.000Z',
  ]);
  // The instant of midnight itself belongs to the day it starts.
  assert.equal(
    periodOf('day', new Date('2026-06-15T22:00:00Z'), 'Europe/Berlin', 'monday').startsAt.toISOString(),
    '2026-06-15T22:00:00.000Z',
  );
});

test('a week starts on week_starts_on, whichever weekday it is', () => {
  // 2026-06-15 is a Monday; in UTC local midnights are UTC midnights.
  for (const [index, weekStartsOn] of WEEKDAYS.entries()) {
    const first = `2026-06-${String(15 + index).padStart(2, '0')}`;
    const lastMinuteBefore = new Date(Date.parse(`${first}T00:00:00Z`) - 60_000);
    const firstMinute = new Date(Date.parse(`${first}T00:01:00Z`));
    const week = periodOf('week', firstMinute, 'UTC', weekStartsOn);
    assert.deepEqual(
      iso(week),
      [`${first}T00:00:00.000Z`, new Date(Date.parse(`${first}T00:00:00Z`) + 7 * 24 * HOUR).toISOString()],
      weekStartsOn,
    );
    const before = periodOf('week', lastMinuteBefore, 'UTC', weekStartsOn);
    assert.equal(before.endsAt.toISOString(), week.startsAt.toISOString(), weekStartsOn);
    assert.equal(hours(before), 7 * 24, weekStartsOn);
  }
});

test('a week in a time zone starts at its local midnight of week_starts_on', () => {
  // Wednesday 17 June 2026, 10:00 in New York (UTC-4).
  const at = new Date('2026-06-17T14:00:00Z');
  assert.deepEqual(iso(periodOf('week', at, 'America/New_York', 'sunday')), [
    '2026-06-14T04:00:00.000Z',
    '2026-06-21T04:00:00.000Z',
  ]);
  assert.deepEqual(iso(periodOf('week', at, 'America/New_York', 'wednesday')), [
    '2026-06-17T04:00:00.000Z',
    '2026-06-24T04:00:00.000Z',
  ]);
  assert.deepEqual(iso(periodOf('week', at, 'America/New_York', 'thursday')), [
    '2026-06-11T04:00:00.000Z',
    '2026-06-18T04:00:00.000Z',
  ]);
});

test('a month runs from the 1st to the 1st of the next, over a year end and a leap day', () => {
  assert.deepEqual(iso(periodOf('month', new Date('2026-12-31T22:59:00Z'), 'Europe/Berlin', 'monday')), [
    '2026-11-30T23:00:00.000Z',
    '2026-12-31T23:00:00.000Z',
  ]);
  assert.deepEqual(iso(periodOf('month', new Date('2026-12-31T23:00:00Z'), 'Europe/Berlin', 'monday')), [
    '2026-12-31T23:00:00.000Z',
    '2027-01-31T23:00:00.000Z',
  ]);
  assert.deepEqual(iso(periodOf('month', new Date('2028-02-29T12:00:00Z'), 'UTC', 'monday')), [
    '2028-02-01T00:00:00.000Z',
    '2028-03-01T00:00:00.000Z',
  ]);
  // March in Berlin loses the hour of its DST change: 743 hours, not 744.
  assert.equal(hours(periodOf('month', new Date('2026-03-15T12:00:00Z'), 'Europe/Berlin', 'monday')), 743);
});

test('Europe/Berlin: the day the clocks go forward is 23 hours, the day they go back 25', () => {
  const spring = periodOf('day', new Date('2026-03-29T12:00:00Z'), 'Europe/Berlin', 'monday');
  assert.deepEqual(iso(spring), ['2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z']);
  assert.equal(hours(spring), 23);
  const autumn = periodOf('day', new Date('2026-10-25T12:00:00Z'), 'Europe/Berlin', 'monday');
  assert.deepEqual(iso(autumn), ['2026-10-24T22:00:00.000Z', '2026-10-25T23:00:00.000Z']);
  assert.equal(hours(autumn), 25);
  // The week around the change: Monday to Monday is 167 hours.
  assert.equal(hours(periodOf('week', new Date('2026-03-27T12:00:00Z'), 'Europe/Berlin', 'monday')), 167);
});

test('America/New_York: 23 and 25 hour days, with their changes at 02:00 local', () => {
  const spring = periodOf('day', new Date('2026-03-08T12:00:00Z'), 'America/New_York', 'monday');
  assert.deepEqual(iso(spring), ['2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z']);
  const autumn = periodOf('day', new Date('2026-11-01T12:00:00Z'), 'America/New_York', 'monday');
  assert.deepEqual(iso(autumn), ['2026-11-01T04:00:00.000Z', '2026-11-02T05:00:00.000Z']);
  // In the hour that comes twice (01:00 to 02:00 local), both passes are the same day.
  for (const at of ['2026-11-01T05:30:00Z', '2026-11-01T06:30:00Z']) {
    assert.deepEqual(iso(periodOf('day', new Date(at), 'America/New_York', 'monday')), iso(autumn), at);
  }
});

test('offsets of 45 and 30 minutes: Kathmandu, and Lord Howe whose clocks move by half an hour', () => {
  assert.deepEqual(iso(periodOf('day', new Date('2026-03-01T18:15:00Z'), 'Asia/Kathmandu', 'monday')), [
    '2026-03-01T18:15:00.000Z',
    '2026-03-02T18:15:00.000Z',
  ]);
  assert.equal(
    periodOf('day', new Date('2026-03-01T18:14:59Z'), 'Asia/Kathmandu', 'monday').endsAt.toISOString(),
    '2026-03-01T18:15:00.000Z',
  );
  // Lord Howe: +11 in summer, +10:30 in winter; 5 April 2026 is 24.5 hours, 4 October 23.5.
  const back = periodOf('day', new Date('2026-04-05T00:00:00Z'), 'Australia/Lord_Howe', 'monday');
  assert.deepEqual(iso(back), ['2026-04-04T13:00:00.000Z', '2026-04-05T13:30:00.000Z']);
  const forward = periodOf('day', new Date('2026-10-04T00:00:00Z'), 'Australia/Lord_Howe', 'monday');
  assert.deepEqual(iso(forward), ['2026-10-03T13:30:00.000Z', '2026-10-04T13:00:00.000Z']);
});

test('Pacific/Kiritimati (UTC+14): its day starts at 10:00 UTC the day before', () => {
  assert.deepEqual(iso(periodOf('day', new Date('2026-06-15T09:59:00Z'), 'Pacific/Kiritimati', 'monday')), [
    '2026-06-14T10:00:00.000Z',
    '2026-06-15T10:00:00.000Z',
  ]);
  // 10:00 UTC on Sunday 14 June is Monday 00:00 there: a new week.
  assert.equal(
    periodOf('week', new Date('2026-06-14T10:00:00Z'), 'Pacific/Kiritimati', 'monday').startsAt.toISOString(),
    '2026-06-14T10:00:00.000Z',
  );
});

test('a midnight the clock skips starts its day when the clock jumps (America/Santiago)', () => {
  // Chile goes from 24:00 on Saturday 5 September to 01:00 on Sunday 6 September (04:00 UTC).
  const sunday = periodOf('day', new Date('2026-09-06T12:00:00Z'), 'America/Santiago', 'monday');
  assert.deepEqual(iso(sunday), ['2026-09-06T04:00:00.000Z', '2026-09-07T03:00:00.000Z']);
  assert.equal(
    periodOf('day', new Date('2026-09-06T03:59:59Z'), 'America/Santiago', 'monday').endsAt.toISOString(),
    '2026-09-06T04:00:00.000Z',
  );
});

test('every instant lies in its period, which starts on a local midnight of the right date', () => {
  let seed = 40;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const zones = [
    'Europe/Berlin',
    'America/New_York',
    'Australia/Lord_Howe',
    'America/Santiago',
    'Pacific/Kiritimati',
    'Asia/Kathmandu',
  ];
  for (let round = 0; round < 600; round++) {
    const zone = zones[round % zones.length] ?? 'UTC';
    const at = new Date(
      Date.parse('2026-01-01T00:00:00Z') +
        Math.floor(next() * 730 * 24) * HOUR +
        Math.floor(next() * 3600) * 1000,
    );
    const weekStartsOn = WEEKDAYS[Math.floor(next() * 7)] ?? 'monday';
    for (const kind of ['day', 'week', 'month'] as const) {
      const period = periodOf(kind, at, zone, weekStartsOn);
      const label = `${kind} ${zone} ${at.toISOString()} ${weekStartsOn}`;
      assert.ok(period.startsAt <= at && at < period.endsAt, label);
      assert.equal(
        todayIn(zone, new Date(period.startsAt.getTime() - 1)) < todayIn(zone, period.startsAt),
        true,
        label,
      );
      if (kind === 'day') assert.equal(todayIn(zone, period.startsAt), todayIn(zone, at), label);
      if (kind === 'month') assert.equal(todayIn(zone, period.startsAt).slice(8), '01', label);
    }
  }
});
