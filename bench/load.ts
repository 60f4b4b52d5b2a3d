/**
 * Drives one scenario against a server and returns requests/s, p50, p99 and
 * errors, after an unmeasured warm-up of the same load. Uses wrk (C, light on
 * the shared CPU) when it is installed, else autocannon. Both replay the same
 * pre-generated list of requests; a `chain` scenario follows next_cursor from
 * each answer for up to 10 pages.
 */
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { CpuMeter, CpuPerRequest } from './cpu.js';

export interface PlannedRequest {
  method: string;
  path: string;
  body?: string;
}

export interface LoadResult {
  rps: number;
  /** Requests answered in the measured run. */
  requests: number;
  p50: number;
  p99: number;
  errors: number;
  cpu?: CpuPerRequest;
  /** Peak RSS of the process measured during the run and its warm-up, in MB. */
  peakRssMb?: number;
}

export interface LoadOptions {
  url: string;
  requests: PlannedRequest[];
  headers: Record<string, string>;
  connections: number;
  duration: number;
  /** Seconds of the same load, not measured, before the measured run. */
  warmup: number;
  /** Path to page through with next_cursor (walk scenarios). */
  chain?: string;
  /** Reads the CPU time of the processes involved around the measured run. */
  cpu?: CpuMeter;
}

export const loadGenerator = (() => {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
  } catch (error) {
    // wrk prints its version and exits 1; only a missing binary is ENOENT.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'autocannon';
  }
  return 'wrk';
})();

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const run = loadGenerator === 'wrk' ? runWrk : runAutocannon;
  if (options.warmup > 0) await run({ ...options, duration: options.warmup });
  const cpuSince = options.cpu?.();
  const result = await run(options);
  return cpuSince ? { ...result, cpu: cpuSince(result.requests) } : result;
}

// Each planned request is formatted once, in init: wrk then spends its CPU on
// sockets, not on Lua. A response callback makes wrk hand every response to
// Lua, so only a chain scenario, which reads next_cursor, defines one.
const WRK_SCRIPT = `
local formatted, idx, cursor, steps = {}, 0, nil, 0
local headers = {}
init = function(args)
  for i = 2, #args, 2 do headers[args[i]] = args[i + 1] end
  for line in io.lines(args[1]) do
    local method, path, body = line:match("^(%S+) (%S+) ?(.*)$")
    if body == "" then body = nil end
    table.insert(formatted, wrk.format(method, path, headers, body))
  end
end
request = function()
  idx = idx % #formatted + 1
  if CHAIN ~= "" and cursor and steps < 9 then
    steps = steps + 1
    return wrk.format("GET", CHAIN .. "?cursor=" .. cursor, headers)
  end
  steps = 0
  return formatted[idx]
end
if CHAIN ~= "" then
  response = function(status, hdrs, body)
    cursor = body:match('"next_cursor":"([^"]+)"')
  end
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('RESULT {"requests":%d,"duration":%d,"p50":%.3f,"p99":%.3f,"errors":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    e.connect + e.read + e.write + e.status + e.timeout))
end
`;

function runWrk(options: LoadOptions): LoadResult {
  const listFile = `/tmp/facility-admin-bench-${process.pid}.requests`;
  const scriptFile = `/tmp/facility-admin-bench-${process.pid}.lua`;
  writeFileSync(
    listFile,
    `${options.requests.map((r) => `${r.method} ${r.path} ${r.body ?? ''}`).join('\n')}\n`,
  );
  writeFileSync(scriptFile, `CHAIN = "${options.chain ?? ''}"\n${WRK_SCRIPT}`);
  const headerArgs = Object.entries(options.headers).flat();
  let output: string;
  try {
    output = execFileSync(
      'wrk',
      [
        '-t1',
        `-c${options.connections}`,
        `-d${options.duration}s`,
        // autocannon's default; wrk's 2 s would count a slow search as failed.
        '--timeout',
        '10s',
        '-s',
        scriptFile,
        options.url,
        '--',
        listFile,
        ...headerArgs,
      ],
      { encoding: 'utf8' },
    );
  } finally {
    rmSync(listFile, { force: true });
    rmSync(scriptFile, { force: true });
  }
  const match = /RESULT (\{.*\})/.exec(output);
  if (!match) throw new Error(`wrk printed no result:\n${output}`);
  const result = JSON.parse(match[1]);
  return {
    rps: result.requests / (result.duration / 1e6),
    requests: result.requests,
    p50: result.p50,
    p99: result.p99,
    errors: result.errors,
  };
}

async function runAutocannon(options: LoadOptions): Promise<LoadResult> {
  let index = 0;
  let cursor: string | undefined;
  let steps = 0;
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.duration,
    headers: options.headers,
    requests: [
      {
        setupRequest: (request) => {
          const planned = options.requests[index++ % options.requests.length];
          let path = planned.path;
          if (options.chain && cursor && steps < 9) {
            path = `${options.chain}?cursor=${cursor}`;
            steps++;
          } else {
            steps = 0;
          }
          return { ...request, method: planned.method as 'GET', path, body: planned.body };
        },
        onResponse: (_status, body) => {
          if (options.chain) cursor = JSON.parse(body).next_cursor ?? undefined;
        },
      },
    ],
  });
  return {
    rps: result.requests.average,
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
  };
}
