/**
 * What the client retries, how long it waits, and the Idempotency-Key it
 * sends, against a stub that answers from a script: the service cannot be
 * made to answer 429 or 503 on cue.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createClient, type Fetch, ProblemError, type RetryOptions } from '../src/index.js';

const PLAN = {
  id: 1,
  facility_id: 1,
  name: 'Gym',
  description: null,
  sport_id: null,
  price_amount: 0,
  currency: 'USD',
  billing_period: 'monthly',
  duration_days: null,
  joining_fee_amount: 0,
  max_members: null,
  is_active: true,
  template_id: null,
  created_at: '2026-03-02T09:15:04.118Z',
  updated_at: '2026-03-02T09:15:04.118Z',
  deleted_at: null,
};

type Answer = Response | Error;

function problem(status: number, code: string, headers: Record<string, string> = {}): Response {
  const body = { type: `urn:facility-admin:problem:${code}`, title: code, status, detail: code, code };
  return new Response(JSON.stringify({ ...body, instance: '/', request_id: 'r-1' }), {
    status,
    headers: { 'content-type': 'application/problem+json', ...headers },
  });
}

const created = () =>
  new Response(JSON.stringify(PLAN), {
    status: 201,
    headers: { 'content-type': 'application/json', etag: '"p1"' },
  });

/** A client whose requests are answered, in turn, by `answers`; `requests` records what was sent. */
function scripted(answers: Answer[], retries: RetryOptions = { baseDelayMs: 1 }) {
  const requests: Request[] = [];
  const fetch: Fetch = async (request) => {
    requests.push(request);
    const answer = answers.shift();
    if (answer === undefined) throw new Error('no answer left in the script');
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { client: createClient({ baseUrl: 'http://stub', apiKey: 'k', fetch, retries }), requests };
}

describe('client retries', () => {
  test('429, 503 and 409 idempotency_in_progress are retried with the same Idempotency-Key', async () => {
    const { client, requests } = scripted([
      problem(429, 'rate_limited', { 'retry-after': '0' }),
      problem(503, 'service_unavailable'),
      problem(409, 'idempotency_in_progress', { 'retry-after': '0' }),
      created(),
    ]);
    const plan = await client.plans.create(1, { name: 'Gym' });
    assert.deepEqual(plan, { data: PLAN, etag: '"p1"' });
    assert.equal(requests.length, 4);
    const keys = new Set(requests.map((request) => request.headers.get('idempotency-key')));
    assert.equal(keys.size, 1);
    assert.match([...keys][0] ?? '', /^[0-9a-f-]{36}$/);
    for (const request of requests) assert.deepEqual(await request.json(), { name: 'Gym' });
  });

  test('a network error is retried; an abort is not', async () => {
    const retried = scripted([new TypeError('fetch failed'), created()]);
    assert.equal((await retried.client.plans.create(1, { name: 'Gym' })).data.id, 1);
    assert.equal(retried.requests.length, 2);

    const aborted = scripted([Object.assign(new Error('aborted'), { name: 'AbortError' }), created()]);
    await assert.rejects(aborted.client.plans.create(1, { name: 'Gym' }), { name: 'AbortError' });
    assert.equal(aborted.requests.length, 1);
  });

  test('other problems are not retried', async () => {
    for (const [status, code] of [
      [409, 'plan_name_conflict'],
      [400, 'validation_error'],
      [500, 'internal_error'],
    ] as const) {
      const { client, requests } = scripted([problem(status, code), created()]);
      await assert.rejects(client.plans.create(1, { name: 'Gym' }), { code, status });
      assert.equal(requests.length, 1, code);
    }
  });

  test('retries stop after max: the last answer is thrown as its ProblemError', async () => {
    const { client, requests } = scripted(
      [1, 2, 3].map(() => problem(503, 'service_unavailable')),
      { max: 2, baseDelayMs: 1 },
    );
    await assert.rejects(client.policy.get(1), (error: unknown) => {
      assert.ok(error instanceof ProblemError);
      assert.deepEqual([error.status, error.code, error.requestId], [503, 'service_unavailable', 'r-1']);
      return true;
    });
    assert.equal(requests.length, 3);
  });

  test('Retry-After is waited for; one longer than maxDelayMs is answered at once', async () => {
    // The waits the client asks for, recorded rather than timed.
    const waits: number[] = [];
    const wait = async (ms: number) => {
      waits.push(ms);
    };
    const waited = scripted([problem(429, 'rate_limited', { 'retry-after': '1' }), created()], { wait });
    await waited.client.plans.create(1, { name: 'Gym' });
    // Retry-After's second, longer than the backoff (at most 200 ms on a first retry).
    assert.deepEqual(waits, [1000]);
    assert.equal(waited.requests.length, 2);

    waits.length = 0;
    const tooLong = scripted([problem(429, 'rate_limited', { 'retry-after': '60' }), created()], {
      maxDelayMs: 5000,
      wait,
    });
    await assert.rejects(tooLong.client.plans.create(1, { name: 'Gym' }), { code: 'rate_limited' });
    assert.deepEqual(waits, [], 'no wait: the answer is returned');
    assert.equal(tooLong.requests.length, 1);
  });

  test('retries 0 sends each request once', async () => {
    const { client, requests } = scripted([problem(503, 'service_unavailable'), created()], { max: 0 });
    await assert.rejects(client.plans.create(1, { name: 'Gym' }), { code: 'service_unavailable' });
    assert.equal(requests.length, 1);
  });

  test('a given Idempotency-Key is sent as it is; reads and updates carry none', async () => {
    const { client, requests } = scripted([
      created(),
      created(),
      new Response(JSON.stringify(PLAN), { status: 200, headers: { etag: '"p2"' } }),
    ]);
    await client.plans.create(1, { name: 'Gym' }, { idempotencyKey: 'signup-42' });
    await client.plans.get(1, 1);
    await client.plans.update(1, 1, { name: 'Gym 2' }, { ifMatch: '"p1"' });
    assert.equal(requests[0].headers.get('idempotency-key'), 'signup-42');
    assert.equal(requests[1].headers.get('idempotency-key'), null);
    assert.equal(requests[2].headers.get('idempotency-key'), null);
    assert.equal(requests[2].headers.get('if-match'), '"p1"');
    assert.equal(requests[0].headers.get('authorization'), 'Bearer k');
  });

  test('an answer that is not a problem document is a ProblemError unexpected_response', async () => {
    const { client } = scripted([new Response('<html>Bad gateway</html>', { status: 502 })]);
    await assert.rejects(client.policy.get(1), { status: 502, code: 'unexpected_response' });
  });
});
