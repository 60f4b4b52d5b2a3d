/**
 * docs/api-usage.md's table of error codes lists every code the service
 * defines, under its status, and no other: a code added without the table, or
 * a row left for a removed one, fails here. It does not depend on the
 * database, so it runs once, on SQLite.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { definedErrorCodes, problemDefinition } from '../src/core/errors.js';

/** The rows of the table headed `| status | codes |`: each status with the codes its row names. */
function documentedCodes(markdown: string): Map<number, string[]> {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => /^\| status \| codes \|$/.test(line.trim()));
  assert.ok(start >= 0, 'docs/api-usage.md has a "| status | codes |" table');
  const table = new Map<number, string[]>();
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const [status, codes] = line.split('|').slice(1, 3);
    assert.ok(!table.has(Number(status)), `one row for status ${status.trim()}`);
    // The codes are the backticked names; a parenthesis after one explains it.
    table.set(
      Number(status),
      [...codes.replace(/\([^)]*\)/g, '').matchAll(/`([a-z0-9_]+)`/g)].map((m) => m[1]),
    );
  }
  return table;
}

test('docs/api-usage.md lists every error code under its status, and no code the service does not define', async () => {
  // Building the app loads every module, so that every code is defined.
  const app = await buildApp({ ...loadConfig({}), databaseUrl: 'sqlite::memory:' }, { logger: false });
  try {
    const expected = new Map<number, string[]>();
    for (const code of definedErrorCodes()) {
      const { status } = problemDefinition(code);
      expected.set(status, [...(expected.get(status) ?? []), code]);
    }
    const documented = documentedCodes(
      readFileSync(new URL('../docs/api-usage.md', import.meta.url), 'utf8'),
    );
    const sorted = (table: Map<number, string[]>) =>
      Object.fromEntries(
        [...table].sort(([a], [b]) => a - b).map(([status, codes]) => [status, [...codes].sort()]),
      );
    assert.deepEqual(sorted(documented), sorted(expected));
  } finally {
    await app.close();
  }
});
