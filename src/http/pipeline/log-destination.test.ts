/**
 * The log destination: lines reach stdout whole and in order, also those
 * still gathered when the process exits, and a reader that stops reading
 * costs dropped lines that are counted, never a stalled process.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const FIXTURE = fileURLToPath(new URL('./log-destination.fixture.ts', import.meta.url));

function startWriter(env: Record<string, string>) {
  return spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs the writer to its end and gives what it wrote to stdout, after checking that it exited cleanly. */
async function outputOf(env: Record<string, string>): Promise<string> {
  const writer = startWriter(env);
  let output = '';
  writer.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const [code] = await once(writer, 'exit');
  assert.equal(code, 0);
  return output;
}

/** The numbers that start the received lines, after checking that each line is whole. */
function lineNumbers(output: string, lineLength: number, lengthOf = (_n: number) => lineLength): number[] {
  const lines = output.split('\n').slice(0, -1);
  for (const line of lines) {
    const expected = lengthOf(Number(line.split(' ')[0]));
    assert.equal(line.length + 1, expected, `a line was cut: ${line.slice(0, 40)}`);
  }
  return lines.map((line) => Number(line.split(' ')[0]));
}

test('every line reaches stdout whole and in order, also those still gathered at process.exit', async () => {
  const output = await outputOf({
    LINES: '5000',
    LINE_LENGTH: '150',
    WAIT_MS: '300',
    TAIL_LINES: '5',
    EXIT: 'now',
  });
  assert.deepEqual(
    lineNumbers(output, 150),
    Array.from({ length: 5005 }, (_, i) => i),
  );
});

test('lines of multi-byte characters, and lines longer than a batch, arrive whole and in order', async () => {
  // 'é' is two bytes in UTF-8: 1,000 characters are 1,998 bytes, and 3,000 fill more than one 4 KB batch.
  const output = await outputOf({
    LINES: '2000',
    LINE_LENGTH: '1000',
    PAD: 'é',
    LONG_EVERY: '7',
    LONG_LENGTH: '3000',
  });
  assert.deepEqual(
    lineNumbers(output, 1000, (n) => (n % 7 === 0 ? 3000 : 1000)),
    Array.from({ length: 2000 }, (_, i) => i),
  );
});

test('a reader that stops reading: lines past 8 MB are dropped and counted, the rest arrive once it reads', async () => {
  const writer = startWriter({ LINES: '60000', LINE_LENGTH: '200', WAIT_MS: '500' });
  let report = '';
  writer.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    report += chunk;
  });
  // Nobody reads stdout until the writer has reported.
  writer.stdout.pause();
  while (!report.includes('\n')) await once(writer.stderr, 'data');
  const dropped = Number(/dropped (\d+)/.exec(report)?.[1]);
  let output = '';
  writer.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  writer.stdout.resume();
  await once(writer, 'exit');
  const received = lineNumbers(output, 200);
  assert.ok(dropped > 10_000, `expected many dropped lines, got ${dropped}`);
  assert.equal(received.length + dropped, 60000);
  assert.deepEqual(
    received,
    [...received].sort((a, b) => a - b),
  );
});
