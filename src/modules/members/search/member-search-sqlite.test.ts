/** Which trigrams of a term SQLite's FTS5 index (migration 0030) is asked for. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SMALL_FACILITY } from './member-search-sample.js';
import { chooseTrigrams, matchEvery, trustedTrigrams } from './member-search-sqlite.js';

test('a term is asked for as its distinct trigrams, ASCII letters in lower case', () => {
  assert.deepEqual(trustedTrigrams('Ann Lee'), ['ann', 'nn ', 'n l', ' le', 'lee']);
  assert.deepEqual(trustedTrigrams('abab'), ['aba', 'bab']);
});

test('a term of fewer than three characters has no trigram', () => {
  assert.deepEqual(trustedTrigrams('ab'), []);
});

test('a letter whose cases the index may fold otherwise than the rule is left out, with its trigrams', () => {
  // `É` and `é`; `ı`, whose upper case `I` FTS5 folds to `i`.
  assert.deepEqual(trustedTrigrams('Élodie'), ['lod', 'odi', 'die']);
  assert.deepEqual(trustedTrigrams('abcıdef'), ['abc', 'def']);
  // Characters of one case (`ß` has no upper case of one character; digits, signs) are trusted.
  assert.deepEqual(trustedTrigrams('aß1@'), ['aß1', 'ß1@']);
});

test('trigrams are asked for as strings, quotes doubled', () => {
  assert.equal(matchEvery(['a"b', 'xyz']), '"a""b" AND "xyz"');
});

const large = (texts: string[]) => ({ members: SMALL_FACILITY + 1, texts });
const sampled = Array.from({ length: 200 }, (_, i) => `m${i}\nsmith\nm${i}.f1@example.com`);

test('a small facility, and a term in at least 1 % of the sample, are read in order', () => {
  assert.equal(chooseTrigrams({ members: SMALL_FACILITY, texts: [] }, 'm7.f1@', ['m7.', '7.f']), undefined);
  assert.equal(chooseTrigrams(large(sampled), 'smith', trustedTrigrams('smith')), undefined);
});

test('a rare term asks for its rarest trigrams, at most four, none in 10 % of the sample', () => {
  const email = 'm7.f1@example.com';
  // `7.f` is in m7, m17 ... m197: 10 %.
  assert.deepEqual(chooseTrigrams(large(sampled), email, trustedTrigrams(email)), ['m7.']);
  const names = Array.from({ length: 200 }, (_, i) => `x${i}`);
  assert.equal(chooseTrigrams(large(names), 'qwertyu', trustedTrigrams('qwertyu'))?.length, 4);
});

test('a rare term whose trigrams are all common asks for the two rarest', () => {
  const halves = Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? 'abcxy' : 'xbcde'));
  assert.deepEqual(chooseTrigrams(large(halves), 'abcde', trustedTrigrams('abcde'))?.sort(), ['abc', 'bcd']);
});
