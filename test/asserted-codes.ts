/**
 * The error codes the suites assert, so that a full run can show every code
 * of src/core/errors.ts asserted at least once (scripts/check-asserted-codes.ts).
 * assertProblem notes each code it has checked; with TEST_ASSERTED_CODES set
 * to a directory (scripts/test.sh sets it when it runs every file), each test
 * process writes the codes it saw there as it exits, one file per process.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const seen = new Set<string>();
const directory = process.env.TEST_ASSERTED_CODES;
if (directory) {
  process.on('exit', () => {
    if (seen.size > 0) writeFileSync(join(directory, `${process.pid}.txt`), `${[...seen].join('\n')}\n`);
  });
}

/** Called by assertProblem once the answer has passed as a problem with this code. */
export function noteAssertedCode(code: string): void {
  seen.add(code);
}
