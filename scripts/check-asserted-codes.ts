/**
 * After a full test run (scripts/test.sh): every error code of the closed set
 * in src/core/errors.ts was asserted by at least one test, through
 * assertProblem (test/asserted-codes.ts). Prints the codes no test asserted
 * and exits 1 when there are any.
 *
 *   node --import tsx scripts/check-asserted-codes.ts <directory the test processes wrote to>
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CODES } from '../src/core/errors.js';

const directory = process.argv[2];
if (!directory) {
  console.error('usage: check-asserted-codes.ts <directory>');
  process.exit(2);
}
const asserted = new Set(
  readdirSync(directory).flatMap((file) =>
    readFileSync(join(directory, file), 'utf8').split('\n').filter(Boolean),
  ),
);
const never = Object.keys(ERROR_CODES).filter((code) => !asserted.has(code));
if (never.length > 0) {
  console.log(`error codes no test asserts (assertProblem): ${never.join(', ')}`);
  process.exit(1);
}
console.log(`every error code is asserted (${asserted.size} of ${Object.keys(ERROR_CODES).length})`);
