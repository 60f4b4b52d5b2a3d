/**
 * After a full test run (scripts/test.sh): every error code of the closed set
 * (src/core/errors.ts and each module's *.problems.ts) was asserted by at least one test, through
 * assertProblem (test/asserted-codes.ts). Prints the codes no test asserted
 * and exits 1 when there are any.
 *
 *   node --import tsx scripts/check-asserted-codes.ts <directory the test processes wrote to>
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { definedErrorCodes } from '../src/core/errors.js';
// Every module defines its codes when it is loaded: the list of modules loads them all.
import '../src/modules.js';

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
const codes = definedErrorCodes();
const never = codes.filter((code) => !asserted.has(code));
if (never.length > 0) {
  console.log(`error codes no test asserts (assertProblem): ${never.join(', ')}`);
  process.exit(1);
}
console.log(`every error code is asserted (${codes.length})`);
