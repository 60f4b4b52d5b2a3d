/**
 * A process that logs through openLogDestination, for log-destination.test.ts:
 * writes LINES numbered lines of LINE_LENGTH characters (padded with PAD, `x`
 * unless set; every LONG_EVERY-th line is LONG_LENGTH long) to stdout; after WAIT_MS,
 * TAIL_LINES more (too few to be handed on yet); then reports on stderr how
 * many lines were dropped, and exits at once (EXIT=now) or once all is written.
 * With EXIT=now it first waits for the lines before the tail to be written,
 * as the service's graceful stop does (flushed), so that only the tail is
 * still gathered at the exit.
 */
import { openLogDestination } from './log-destination.js';

const env = (name: string) => Number(process.env[name] ?? 0);
const pad = process.env.PAD ?? 'x';
const { stream, droppedLines, flushed } = openLogDestination();
let written = 0;
const writeLines = (count: number) => {
  for (let end = written + count; written < end; written++) {
    const prefix = `${written} `;
    const long = env('LONG_EVERY') > 0 && written % env('LONG_EVERY') === 0;
    const length = long ? env('LONG_LENGTH') : env('LINE_LENGTH');
    stream.write(`${prefix}${pad.repeat(length - prefix.length - 1)}\n`);
  }
};

writeLines(env('LINES'));
setTimeout(async () => {
  if (process.env.EXIT === 'now') await flushed();
  writeLines(env('TAIL_LINES'));
  process.stderr.write(`dropped ${droppedLines()}\n`);
  if (process.env.EXIT === 'now') process.exit(0);
}, env('WAIT_MS'));
