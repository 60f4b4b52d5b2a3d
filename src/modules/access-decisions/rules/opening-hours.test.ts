/** openingAt: open or closed at an instant, and until when, from opening hours and closures. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Policy } from '../../policy/policy.schemas.js';
import { type Opening, openingAt } from './opening-hours.js';

type Rules = Pick<Policy, 'timezone' | 'opening_hours' | 'closures'>;
const rules = (
  opening_hours: Rules['opening_hours'],
  closures: Rules['closures'] = [],
  timezone = 'UTC',
): Rules => ({
  timezone,
  opening_hours,
  closures,
});
const closure = (starts_on: string, ends_on: string) => ({ starts_on, ends_on, reason: null });
const at = (policy: Rules, instant: string) => openingAt(policy, new Date(instant));
const closed = (why: 'closed' | 'closure', until: string | null): Opening => ({
  open: false,
  why,
  until: until === null ? null : new Date(until),
});
const OPEN: Opening = { open: true };

// 2026-06-15 is a Monday; 2026-12-24 a Thursday.

test('no opening hours and no closures: open at any instant', () => {
  assert.deepEqual(at(rules(null), '2026-06-15T03:00:00Z'), OPEN);
});

test('a weekday left out, or given no intervals, is closed all day', () => {
  const policy = rules({ monday: [{ opens: '08:00', closes: '20:00' }], tuesday: [] });
  assert.deepEqual(at(policy, '2026-06-16T12:00:00Z'), closed('closed', '2026-06-22T08:00:00Z'));
  assert.deepEqual(at(policy, '2026-06-17T12:00:00Z'), closed('closed', '2026-06-22T08:00:00Z'));
});

test('no weekday has hours: closed, and it never opens (until null)', () => {
  assert.deepEqual(at(rules({ monday: [] }), '2026-06-15T12:00:00Z'), closed('closed', null));
  assert.deepEqual(at(rules({}), '2026-06-15T12:00:00Z'), closed('closed', null));
});

test('an interval opens at its opening minute and closes at its closing minute', () => {
  const policy = rules({ monday: [{ opens: '08:00', closes: '20:00' }] });
  assert.deepEqual(at(policy, '2026-06-15T07:59:59Z'), closed('closed', '2026-06-15T08:00:00Z'));
  assert.deepEqual(at(policy, '2026-06-15T08:00:00Z'), OPEN);
  assert.deepEqual(at(policy, '2026-06-15T19:59:59Z'), OPEN);
  assert.deepEqual(at(policy, '2026-06-15T20:00:00Z'), closed('closed', '2026-06-22T08:00:00Z'));
});

test('several intervals in a day: closed between them until the next one opens', () => {
  const policy = rules({
    monday: [
      { opens: '14:00', closes: '22:00' },
      { opens: '06:00', closes: '12:00' },
    ],
  });
  assert.deepEqual(at(policy, '2026-06-15T13:00:00Z'), closed('closed', '2026-06-15T14:00:00Z'));
  assert.deepEqual(at(policy, '2026-06-15T05:00:00Z'), closed('closed', '2026-06-15T06:00:00Z'));
});

test('closing at midnight: open at 23:59, closed at 00:01 of the next day', () => {
  const policy = rules({ monday: [{ opens: '08:00', closes: '00:00' }] }, [], 'Europe/Berlin');
  // Berlin in June is UTC+2.
  assert.deepEqual(at(policy, '2026-06-15T21:59:00Z'), OPEN);
  assert.deepEqual(at(policy, '2026-06-15T22:01:00Z'), closed('closed', '2026-06-22T06:00:00Z'));
});

test('an interval closing at or before it opens runs into the next day, which has no hours of its own', () => {
  const policy = rules({ friday: [{ opens: '20:00', closes: '02:00' }] });
  assert.deepEqual(at(policy, '2026-06-19T23:59:00Z'), OPEN);
  assert.deepEqual(at(policy, '2026-06-20T00:01:00Z'), OPEN);
  assert.deepEqual(at(policy, '2026-06-20T01:59:59Z'), OPEN);
  assert.deepEqual(at(policy, '2026-06-20T02:00:00Z'), closed('closed', '2026-06-26T20:00:00Z'));
});

test('opens equal to closes: open 24 hours, to the same time the next day', () => {
  const policy = rules({ monday: [{ opens: '06:00', closes: '06:00' }] });
  assert.deepEqual(at(policy, '2026-06-16T05:59:00Z'), OPEN);
  assert.deepEqual(at(policy, '2026-06-16T06:00:00Z'), closed('closed', '2026-06-22T06:00:00Z'));
});

test('a closure cuts an overnight interval at the local midnight that starts it', () => {
  // Saturday 20 June closed: Friday's 20:00 to 02:00 ends at midnight.
  const policy = rules({ friday: [{ opens: '20:00', closes: '02:00' }] }, [
    closure('2026-06-20', '2026-06-20'),
  ]);
  assert.deepEqual(at(policy, '2026-06-19T23:59:00Z'), OPEN);
  assert.deepEqual(at(policy, '2026-06-20T00:01:00Z'), closed('closure', '2026-06-26T20:00:00Z'));
});

test("a closure on the day an overnight interval opens leaves the next day's part open", () => {
  // Friday 19 June closed: Friday's 20:00 to 02:00 opens at Saturday's midnight.
  const policy = rules({ friday: [{ opens: '20:00', closes: '02:00' }] }, [
    closure('2026-06-19', '2026-06-19'),
  ]);
  assert.deepEqual(at(policy, '2026-06-19T21:00:00Z'), closed('closure', '2026-06-20T00:00:00Z'));
  assert.deepEqual(at(policy, '2026-06-20T01:00:00Z'), OPEN);
});

test('until skips a closure: the first opening after it', () => {
  const daily = { opens: '08:00', closes: '20:00' };
  const hours = Object.fromEntries(
    ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [
      day,
      [daily],
    ]),
  );
  const policy = rules(hours, [closure('2026-12-24', '2026-12-26')], 'Europe/Berlin');
  // Wednesday 23 December, 22:00 in Berlin (UTC+1): closed for the night, then the closure.
  assert.deepEqual(at(policy, '2026-12-23T21:00:00Z'), closed('closed', '2026-12-27T07:00:00Z'));
  assert.deepEqual(at(policy, '2026-12-25T10:00:00Z'), closed('closure', '2026-12-27T07:00:00Z'));
  assert.deepEqual(at(policy, '2026-12-27T07:00:00Z'), OPEN);
});

test('always open but for closures: closed to the midnight after the last adjoining closure', () => {
  const policy = rules(
    null,
    [closure('2026-12-26', '2026-12-26'), closure('2026-12-24', '2026-12-25')],
    'Europe/Berlin',
  );
  assert.deepEqual(at(policy, '2026-12-23T22:59:59Z'), OPEN);
  assert.deepEqual(at(policy, '2026-12-23T23:00:00Z'), closed('closure', '2026-12-26T23:00:00Z'));
  assert.deepEqual(at(policy, '2026-12-26T23:00:00Z'), OPEN);
});

test('no opening in the next 400 days: until is null', () => {
  const policy = rules({ monday: [{ opens: '08:00', closes: '20:00' }] }, [
    closure('2026-06-01', '2027-12-31'),
  ]);
  assert.deepEqual(at(policy, '2026-06-15T12:00:00Z'), closed('closure', null));
  // A closure to the last date there is neither fails nor opens.
  const forever = rules(null, [closure('2026-06-01', '9999-12-31')]);
  assert.deepEqual(at(forever, '2026-06-15T12:00:00Z'), closed('closure', null));
  assert.deepEqual(at(forever, '9999-12-31T12:00:00Z').open, false);
});

test('Europe/Berlin spring forward: a time the clock skips opens when the clock jumps', () => {
  // Sunday 29 March 2026: 02:00 CET becomes 03:00 CEST at 01:00 UTC; 02:30 never shows.
  const policy = rules({ sunday: [{ opens: '02:30', closes: '04:00' }] }, [], 'Europe/Berlin');
  assert.deepEqual(at(policy, '2026-03-29T00:59:59Z'), closed('closed', '2026-03-29T01:00:00Z'));
  assert.deepEqual(at(policy, '2026-03-29T01:00:00Z'), OPEN);
  assert.deepEqual(at(policy, '2026-03-29T02:00:00Z'), closed('closed', '2026-04-05T00:30:00Z'));
  // An overnight interval over the change is an hour shorter: 22:00 CET to 06:00 CEST.
  const night = rules({ saturday: [{ opens: '22:00', closes: '06:00' }] }, [], 'Europe/Berlin');
  assert.deepEqual(at(night, '2026-03-28T21:00:00Z'), OPEN);
  assert.deepEqual(at(night, '2026-03-29T03:59:59Z'), OPEN);
  assert.deepEqual(at(night, '2026-03-29T04:00:00Z'), closed('closed', '2026-04-04T20:00:00Z'));
});

test('Europe/Berlin fall back: a time the clock shows twice is its first showing', () => {
  // Sunday 25 October 2026: 03:00 CEST becomes 02:00 CET at 01:00 UTC; 02:00 to 03:00 comes twice.
  const policy = rules({ sunday: [{ opens: '02:30', closes: '03:30' }] }, [], 'Europe/Berlin');
  assert.deepEqual(at(policy, '2026-10-25T00:29:59Z'), closed('closed', '2026-10-25T00:30:00Z'));
  // Opens at the first 02:30 (CEST), closes at 03:30 CET: two hours.
  assert.deepEqual(at(policy, '2026-10-25T00:30:00Z'), OPEN);
  assert.deepEqual(at(policy, '2026-10-25T01:45:00Z'), OPEN);
  assert.deepEqual(at(policy, '2026-10-25T02:30:00Z'), closed('closed', '2026-11-01T01:30:00Z'));
});

test('America/New_York: the skipped and the repeated hour', () => {
  // Sunday 8 March 2026: 02:00 EST becomes 03:00 EDT at 07:00 UTC; 02:30 closes at the jump.
  const spring = rules({ sunday: [{ opens: '01:30', closes: '02:30' }] }, [], 'America/New_York');
  assert.deepEqual(at(spring, '2026-03-08T06:30:00Z'), OPEN);
  assert.deepEqual(at(spring, '2026-03-08T07:00:00Z'), closed('closed', '2026-03-15T05:30:00Z'));
  // Sunday 1 November 2026: 01:00 to 02:00 comes twice; 01:30 to 01:45 is the first showing only.
  const autumn = rules({ sunday: [{ opens: '01:30', closes: '01:45' }] }, [], 'America/New_York');
  assert.deepEqual(at(autumn, '2026-11-01T05:35:00Z'), OPEN);
  assert.deepEqual(at(autumn, '2026-11-01T06:35:00Z'), closed('closed', '2026-11-08T06:30:00Z'));
});

test('Asia/Kathmandu (UTC+5:45): opens at 06:00 local, 00:15 UTC', () => {
  const policy = rules({ monday: [{ opens: '06:00', closes: '21:00' }] }, [], 'Asia/Kathmandu');
  assert.deepEqual(at(policy, '2026-06-15T00:14:59Z'), closed('closed', '2026-06-15T00:15:00Z'));
  assert.deepEqual(at(policy, '2026-06-15T00:15:00Z'), OPEN);
});

test("Pacific/Kiritimati (UTC+14): Monday's hours fall on Sunday in UTC", () => {
  const policy = rules({ monday: [{ opens: '08:00', closes: '10:00' }] }, [], 'Pacific/Kiritimati');
  assert.deepEqual(at(policy, '2026-06-14T19:00:00Z'), OPEN);
  assert.deepEqual(at(policy, '2026-06-15T19:00:00Z'), closed('closed', '2026-06-21T18:00:00Z'));
  // A closure of Monday 15 June there starts at 10:00 UTC on the 14th.
  const closedMonday = rules(
    policy.opening_hours,
    [closure('2026-06-15', '2026-06-15')],
    'Pacific/Kiritimati',
  );
  assert.deepEqual(at(closedMonday, '2026-06-14T09:00:00Z'), closed('closed', '2026-06-21T18:00:00Z'));
  assert.deepEqual(at(closedMonday, '2026-06-14T10:00:00Z'), closed('closure', '2026-06-21T18:00:00Z'));
});
