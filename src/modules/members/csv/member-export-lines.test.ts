/**
 * The export writes its CSV lines itself (member-export.service.ts, for
 * speed); csv-stringify, the CSV project's writer, with the option the
 * export used before (quote a value that holds a semicolon), is the oracle:
 * the same text for any values, CSV's own characters often.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { cellOf } from './member-csv.columns.js';
import { csvLines } from './member-export.service.js';

const value = fc.string({
  unit: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(',', ';', '"', "'", '\n', '\r', '\t', ' ', '=', '+', '-', '@') },
    { weight: 5, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  ),
  maxLength: 20,
});

test('an export line is what csv-stringify writes for the same cells', () => {
  fc.assert(
    fc.property(fc.array(fc.array(value, { minLength: 1, maxLength: 6 }), { maxLength: 5 }), (rows) => {
      const cells = rows.map((row) => row.map(cellOf));
      assert.equal(csvLines(cells), stringify(cells, { quoted_match: /;/ }));
    }),
    { numRuns: 2000 },
  );
});

test('a value with a semicolon, comma, quote or line break is quoted; a quote is doubled', () => {
  assert.equal(
    csvLines([['x;=1+1;', 'a,b', 'say "hi"', 'two\nlines', 'plain', '']]),
    '"x;=1+1;","a,b","say ""hi""","two\nlines",plain,\n',
  );
});
