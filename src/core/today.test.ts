/** todayIn: the facility's date, which member creates default joined_on to and check ages against. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { todayIn } from './dates.js';

test("today is the facility's date, and a new day starts at local midnight, not at the next minute", () => {
  // Asia/Kathmandu is UTC+05:45: its midnight falls at 18:15 UTC.
  assert.equal(todayIn('Asia/Kathmandu', new Date('2026-03-01T18:14:59.999Z')), '2026-03-01');
  assert.equal(todayIn('Asia/Kathmandu', new Date('2026-03-01T18:15:00.000Z')), '2026-03-02');
  assert.equal(todayIn('Asia/Kathmandu', new Date('2026-03-01T18:14:30.000Z')), '2026-03-01');
  assert.equal(todayIn('UTC', new Date('2026-12-31T23:59:59.999Z')), '2026-12-31');
  assert.equal(todayIn('UTC', new Date('2027-01-01T00:00:00.000Z')), '2027-01-01');
  assert.equal(todayIn('America/Los_Angeles', new Date('2027-01-01T00:00:00.000Z')), '2026-12-31');
});

test('an instant gives the same date in a zone whatever instant was asked before', () => {
  const fresh = (zone: string, instant: Date) =>
    new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(instant);
  const instants = ['2026-06-15T23:30:00.000Z', '1999-01-01T12:00:00.000Z', '2026-06-15T23:30:59.000Z'];
  for (const zone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Europe/Berlin', 'UTC']) {
    for (const instant of [...instants, ...instants].map((text) => new Date(text))) {
      assert.equal(todayIn(zone, instant), fresh(zone, instant), `${zone} ${instant.toISOString()}`);
    }
  }
  assert.equal(todayIn('Pacific/Kiritimati', new Date('2026-06-15T23:30:00.000Z')), '2026-06-16');
  assert.equal(todayIn('Pacific/Pago_Pago', new Date('2026-06-15T23:30:00.000Z')), '2026-06-15');
});
