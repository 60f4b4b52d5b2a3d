/** The versions ETags are made of: a write's updated_at is always after the row's last one. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { etagOf, writeTimeAfter } from './etag.js';

const LAST = '2026-11-23T10:00:00.000Z';
const at = (iso: string) => Date.parse(iso);

test('a write stamps the current time when the clock is past the last write', () => {
  assert.equal(writeTimeAfter(LAST, at('2026-11-23T10:00:05.123Z')), '2026-11-23T10:00:05.123Z');
});

test('a write within the millisecond of the last one, or on a clock behind it, is one millisecond later', () => {
  assert.equal(writeTimeAfter(LAST, at(LAST)), '2026-11-23T10:00:00.001Z');
  assert.equal(writeTimeAfter(LAST, at('2026-11-23T09:59:58.000Z')), '2026-11-23T10:00:00.001Z');
});

test('the ETag names the representation revision and the version, and differs when either does', () => {
  const member = { revision: 'abc' };
  assert.match(etagOf(member, LAST), /^"abc-[a-z0-9]+"$/);
  assert.notEqual(etagOf(member, LAST), etagOf(member, writeTimeAfter(LAST, at(LAST))));
  assert.notEqual(etagOf(member, LAST), etagOf({ revision: 'abd' }, LAST));
  assert.equal(etagOf(member, 7), '"abc-7"');
});
