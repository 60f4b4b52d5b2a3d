/**
 * A process that logs through openLogDestination, for log-destination.test.ts:
 * writes LINES numbered lines of LINE_BYTES bytes to stdout; after WAIT_MS,
 * TAIL_LINES more (too few to be handed on yet); then reports on stderr how
 * many lines were dropped, and exits at once (EXIT=now) or once all is written.
 */
import { openLogDestination } from './log-destination.js';

const env = (name: string) => Number(process.env[name] ?? 0);
const lineBytes = env('LINE_BYTES');
const { stream, droppedLines } = openLogDestination();
let written = 0;
const writeLines = (count: number) => {
  for (let end = written + count; written < end; written++) {
    const prefix = `${written} `;
    stream.write(`${prefix}${'x'.repeat(lineBytes - prefix.length - 1)}\n`);
  }
};

writeLines(env('LINES'));
setTimeout(() => {
  writeLines(env('TAIL_LINES'));
  process.stderr.write(`dropped ${droppedLines()}\n`);
  if (process.env.EXIT === 'now') process.exit(0);
}, env('WAIT_MS'));
