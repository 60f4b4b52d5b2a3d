import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { jsonLimitProblem } from './json-limits.js';

/** Depth and keys (object members and array items) of a parsed value, counted the plain way. */
function measure(value: unknown): { depth: number; keys: number } {
  if (value === null || typeof value !== 'object') return { depth: 0, keys: 0 };
  const items = Array.isArray(value) ? value : Object.values(value);
  let depth = 0;
  let keys = items.length;
  for (const item of items) {
    const inner = measure(item);
    depth = Math.max(depth, inner.depth);
    keys += inner.keys;
  }
  return { depth: depth + 1, keys };
}

test('the text scan finds exactly the depth and key count of any JSON value, however it is spaced', () => {
  const texts = fc.tuple(fc.jsonValue({ maxDepth: 6 }), fc.constantFrom(undefined, 0, 1, '\t', ' \r\n'));
  fc.assert(
    fc.property(
      texts,
      fc.integer({ min: 1, max: 8 }),
      fc.integer({ min: 0, max: 40 }),
      ([value, space], maxDepth, maxKeys) => {
        const text = JSON.stringify(value, null, space);
        const { depth, keys } = measure(value);
        const problem = jsonLimitProblem(text, { maxDepth, maxKeys });
        if (depth > maxDepth || keys > maxKeys) assert.notEqual(problem, undefined, text);
        else assert.equal(problem, undefined, text);
      },
    ),
    { numRuns: 2000 },
  );
});
