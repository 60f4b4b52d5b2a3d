/**
 * What a password costs (src/infrastructure/passwords/password-hash.ts): one Argon2id hash and
 * one verification at a time (median and slowest of --count, and the process's CPU time for
 * each), then --burst verifications started at once (they take turns, HASHES_AT_ONCE at a
 * time): how long the last one waited, and the process's resident memory before and at its
 * highest (sampled every 2 ms).
 *   npx tsx bench/password-hash.ts [--count 20] [--burst 16]
 */
import { parseArgs } from 'node:util';
import {
  HASHES_AT_ONCE,
  hashPassword,
  verifyPassword,
} from '../src/infrastructure/passwords/password-hash.js';

const { values } = parseArgs({
  options: { count: { type: 'string', default: '20' }, burst: { type: 'string', default: '16' } },
});
const count = Number(values.count);
const burst = Number(values.burst);
const password = 'correct horse battery staple';

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

function summary(label: string, times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  return `${label}: median ${median.toFixed(1)} ms, slowest ${sorted[sorted.length - 1].toFixed(1)} ms`;
}

const stored = await hashPassword(password);
const hashes: number[] = [];
const verifications: number[] = [];
const cpuBefore = process.cpuUsage();
for (let i = 0; i < count; i++) {
  hashes.push(await timed(() => hashPassword(password)));
  verifications.push(await timed(() => verifyPassword(stored, password)));
}
const cpu = process.cpuUsage(cpuBefore);
console.log(`Node ${process.versions.node}, ${count} of each, one at a time`);
console.log(summary('hash', hashes));
console.log(summary('verify', verifications));
// CPU time moves less than wall time on a busy machine: it is what a hash costs, whoever waits.
console.log(
  `CPU time per hash or verification: ${((cpu.user + cpu.system) / 1000 / (2 * count)).toFixed(1)} ms`,
);

const rssBefore = process.memoryUsage().rss;
let rssPeak = rssBefore;
const sampler = setInterval(() => {
  rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
}, 2);
const start = performance.now();
const ends = await Promise.all(
  Array.from({ length: burst }, () => verifyPassword(stored, 'wrong').then(() => performance.now() - start)),
);
clearInterval(sampler);
console.log(
  `${burst} verifications at once, ${HASHES_AT_ONCE} at a time: all done after ${Math.max(...ends).toFixed(0)} ms ` +
    `(first ${Math.min(...ends).toFixed(0)} ms); RSS ${(rssBefore / 1e6).toFixed(0)} MB, at most ${(rssPeak / 1e6).toFixed(0)} MB`,
);
