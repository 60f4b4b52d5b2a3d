/** Which trigrams of a term SQLite's FTS5 index (migration 0041) is asked for. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SMALL_FACILITY } from './member-search-sample.js';
import { chooseTrigrams, matchEvery, trigramsOf } from './member-search-sqlite.js';

test('words are asked for as their distinct trigrams', () => {
  assert.deepEqual(trigramsOf(['ann', 'lee']), ['ann', 'lee']);
  assert.deepEqual(trigramsOf(['abab', 'bab']), ['aba', 'bab']);
  assert.deepEqual(trigramsOf(['jurgen']), ['jur', 'urg', 'rge', 'gen']);
});

test('a word of fewer than three characters has no trigram', () => {
  assert.deepEqual(trigramsOf(['ab', 'c']), []);
});

test('trigrams are asked for as strings, quotes doubled', () => {
  assert.equal(matchEvery(['a"b', 'xyz']), '"a""b" AND "xyz"');
});

const large = (texts: string[]) => ({ members: SMALL_FACILITY + 1, texts });
const sampled = Array.from({ length: 200 }, (_, i) => `m${i}\nsmith\nm${i}.f1@example.com`);

test('a small facility, and a term in at least 1 % of the sample, are read in order', () => {
  assert.equal(chooseTrigrams({ members: SMALL_FACILITY, texts: [] }, ['m7.f1@'], ['m7.', '7.f']), undefined);
  assert.equal(chooseTrigrams(large(sampled), ['smith'], trigramsOf(['smith'])), undefined);
});

test('a rare term asks for its rarest trigrams, at most four, none in 10 % of the sample', () => {
  const email = 'm7.f1@example.com';
  // `7.f` is in m7, m17 ... m197: 10 %.
  assert.deepEqual(chooseTrigrams(large(sampled), [email], trigramsOf([email])), ['m7.']);
  const names = Array.from({ length: 200 }, (_, i) => `x${i}`);
  assert.equal(chooseTrigrams(large(names), ['qwertyu'], trigramsOf(['qwertyu']))?.length, 4);
});

test('a rare term whose trigrams are all common asks for the two rarest', () => {
  const halves = Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? 'abcxy' : 'xbcde'));
  assert.deepEqual(chooseTrigrams(large(halves), ['abcde'], trigramsOf(['abcde']))?.sort(), ['abc', 'bcd']);
});
