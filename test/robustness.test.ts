/**
 * Property-based robustness: every one of the 17 endpoints gets random and
 * malformed input (random JSON values, random objects built from the
 * endpoint's own field names, random path segments and query values, random
 * content types, truncated JSON, bodies nested deep or holding many keys,
 * path parameters longer than the router takes, bytes that are not UTF-8).
 * Whatever comes in, the service never
 * answers 5xx, every error is problem+json whose `status` is the HTTP status,
 * and a rejected request writes nothing.
 *
 * FUZZ_RUNS sets the runs per endpoint (default 150); FUZZ_SEED replays a
 * failure that fast-check reported.
 */
import assert from 'node:assert/strict';
import { isUtf8 } from 'node:buffer';
import { test } from 'node:test';
import fc from 'fast-check';
import { type Api, assertProblem, describeEachDialect, type TestResponse } from './harness.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const MAX_ID = Number.MAX_SAFE_INTEGER;
const ALL_STATUSES = 'pending,active,frozen,suspended,cancelled,removed';
const ENTITLEMENT_KEY = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
/** The default limits: JSON_MAX_DEPTH, JSON_MAX_KEYS, PROBLEM_MAX_ERRORS and the router's parameter length. */
const MAX_DEPTH = 32;
const MAX_KEYS = 1000;
const MAX_ERRORS = 100;
const MAX_PARAM_LENGTH = 1000;

interface Endpoint {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** Field names of the body (known ones plus read-only ones); undefined when there is no body. */
  fields?: string[];
  /** A body the endpoint accepts, for cases that vary something else. */
  validBody?: unknown;
  query?: { integers?: string[]; booleans?: string[]; others?: string[] };
}

const PLAN_FIELDS = [
  'name',
  'description',
  'sport_id',
  'price_amount',
  'currency',
  'billing_period',
  'duration_days',
  'joining_fee_amount',
  'max_members',
  'is_active',
];
const MEMBER_FIELDS = [
  'first_name',
  'last_name',
  'email',
  'phone',
  'date_of_birth',
  'sport_id',
  'role',
  'status',
  'plan_id',
  'joined_on',
  'notes',
];
const POLICY_FIELDS = [
  'timezone',
  'currency',
  'booking_window_days',
  'cancellation_cutoff_hours',
  'late_cancellation_fee_amount',
  'no_show_fee_amount',
  'max_active_bookings',
  'guest_passes_per_month',
  'allow_freeze',
  'max_freeze_days_per_year',
  'min_member_age',
  'require_waiver',
];
const READ_ONLY = ['id', 'facility_id', 'created_at', 'updated_at', 'deleted_at', 'status_changed_at'];
const PAGING = ['limit', 'cursor'];

const ENDPOINTS: Endpoint[] = [
  {
    method: 'POST',
    path: '/admin/facilities/{facility_id}/plans',
    fields: [...PLAN_FIELDS, 'template_id', ...READ_ONLY],
    validBody: { name: 'Fuzz plan' },
  },
  {
    method: 'GET',
    path: '/admin/facilities/{facility_id}/plans',
    query: { integers: ['sport_id'], booleans: ['include_inactive'], others: PAGING },
  },
  { method: 'GET', path: '/admin/facilities/{facility_id}/plans/{plan_id}' },
  {
    method: 'PATCH',
    path: '/admin/facilities/{facility_id}/plans/{plan_id}',
    fields: [...PLAN_FIELDS, 'template_id', ...READ_ONLY],
    validBody: {},
  },
  {
    method: 'DELETE',
    path: '/admin/facilities/{facility_id}/plans/{plan_id}',
    query: { booleans: ['hard_delete'] },
  },
  { method: 'GET', path: '/admin/plan-templates', query: { integers: ['sport_id'], others: PAGING } },
  { method: 'GET', path: '/admin/facilities/{facility_id}/plans/{plan_id}/entitlements' },
  {
    method: 'PUT',
    path: '/admin/facilities/{facility_id}/plans/{plan_id}/entitlements',
    fields: ['entitlements', 'key', 'value'],
    validBody: { entitlements: [{ key: 'guest_passes', value: 2 }] },
  },
  {
    method: 'PUT',
    path: '/admin/facilities/{facility_id}/plans/{plan_id}/entitlements/{key}',
    fields: ['key', 'value', 'entitlements'],
    validBody: { value: 2 },
  },
  { method: 'DELETE', path: '/admin/facilities/{facility_id}/plans/{plan_id}/entitlements/{key}' },
  {
    method: 'POST',
    path: '/admin/facilities/{facility_id}/members',
    fields: [...MEMBER_FIELDS, ...READ_ONLY],
    validBody: { first_name: 'Fuzz' },
  },
  {
    method: 'GET',
    path: '/admin/facilities/{facility_id}/members',
    query: { integers: ['sport_id', 'plan_id'], others: ['status', 'role', 'q', ...PAGING] },
  },
  { method: 'GET', path: '/admin/facilities/{facility_id}/members/{member_id}' },
  {
    method: 'PATCH',
    path: '/admin/facilities/{facility_id}/members/{member_id}',
    fields: [...MEMBER_FIELDS, ...READ_ONLY],
    validBody: {},
  },
  {
    method: 'DELETE',
    path: '/admin/facilities/{facility_id}/members/{member_id}',
    query: { booleans: ['hard_delete'] },
  },
  { method: 'GET', path: '/admin/facilities/{facility_id}/policy' },
  {
    method: 'PATCH',
    path: '/admin/facilities/{facility_id}/policy',
    fields: [...POLICY_FIELDS, ...READ_ONLY],
    validBody: {},
  },
];

// --- arbitraries ------------------------------------------------------------------

/** Values that sit on or next to a rule of some field. */
const edgeValue = fc.constantFrom<unknown>(
  null,
  true,
  false,
  0,
  -1,
  1,
  1.5,
  -0.5,
  100_000_000,
  100_000_001,
  MAX_ID,
  MAX_ID + 1,
  1e300,
  '',
  ' ',
  '  padded  ',
  'USD',
  'usd',
  'EUR',
  'monthly',
  'one_time',
  'daily',
  'active',
  'removed',
  'frozen',
  'cancelled',
  'coach',
  'UTC',
  'Europe/Berlin',
  'Mars/Olympus',
  '2000-01-01',
  '2000-02-30',
  '9999-12-31',
  '2026-11-22T10:00:00.000Z',
  'a@example.com',
  'not-an-email',
  '+1 (555) 010-0000',
  'guest_passes',
  '\u0000',
  '\uD800',
  '🏸',
  "'; DROP TABLE plans; --",
  'x'.repeat(2001),
  [],
  {},
  [{ key: 'guest_passes', value: 1 }],
  { guest_passes: 1 },
);

const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: edgeValue },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  {
    weight: 1,
    arbitrary: fc.array(
      fc.record({ key: fc.oneof(fc.string({ maxLength: 70 }), edgeValue), value: anyLeaf() }),
      {
        maxLength: 4,
      },
    ),
  },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 10 }), anyLeaf(), { maxKeys: 4 }) },
);

function anyLeaf(): fc.Arbitrary<unknown> {
  return fc.oneof(edgeValue, fc.string({ maxLength: 20 }), fc.integer(), fc.boolean(), fc.constant(null));
}

/** Path segments: random text (sent encoded), numbers of every kind, and raw oddities. */
const pathSegment = fc.oneof(
  fc.string({ maxLength: 30 }).map(encodeURIComponent),
  fc.string({ unit: 'binary', maxLength: 10 }).map(encodeURIComponent),
  fc.integer().map(String),
  fc.bigInt({ min: 0n, max: 10n ** 40n }).map(String),
  fc.double({ noNaN: true }).map(String),
  fc.constantFrom(
    '',
    '0',
    '-1',
    '1.0',
    '1e3',
    '0x10',
    '01',
    '+1',
    '%20',
    '%00',
    '%2F',
    '..',
    '.',
    '1;x',
    '%',
    '%ZZ',
    '%E0%A4%A',
    '9007199254740991',
    '9007199254740992',
    '1'.repeat(300),
    'guest_passes',
    'A.b-c_1',
    '_bad',
    'x'.repeat(65),
  ),
);

const queryValue = fc.oneof(
  fc.constantFrom(
    'true',
    'false',
    'TRUE',
    '1',
    '0',
    '',
    '-1',
    '1.5',
    '1e3',
    MAX_ID.toString(),
    'active,removed',
    'admin',
  ),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 10 }),
  fc.integer().map(String),
);

const NON_JSON_TYPES = [
  'text/plain',
  'text/plain; charset=utf-8',
  'text/html',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/octet-stream',
  'application/jsonx',
  'application/problem+json',
  'application/json-seq',
  'json',
  'application',
  '*/*',
];

type FuzzCase =
  | { kind: 'json'; value: unknown }
  | { kind: 'fields'; value: Record<string, unknown> }
  | { kind: 'path'; param: string; segment: string }
  | { kind: 'query'; query: Record<string, string> }
  | { kind: 'content-type'; contentType: string; known: boolean; payload: string }
  | { kind: 'truncated'; cut: number }
  | { kind: 'nested'; depth: number; array: boolean; idempotent: boolean }
  | { kind: 'keys'; count: number; inArray: boolean; idempotent: boolean }
  | { kind: 'long-param'; param: string; segment: string }
  | { kind: 'utf8'; bytes: number[] };

/** Byte sequences that are never UTF-8: a lone continuation, overlong forms, surrogates, past U+10FFFF, cut short. */
const INVALID_UTF8 = [
  [0x80],
  [0xff],
  [0xc0, 0xaf],
  [0xe0, 0x80, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xe2, 0x82],
];

/** Cases that go past the input limits, or close to them. */
function limitCases(params: string[]): fc.Arbitrary<FuzzCase>[] {
  // Up to 30,000 levels: deeper, nested objects ('{"a":' a level) would be over the 256 KiB body limit.
  const depth = fc.oneof(
    fc.integer({ min: 1, max: 80 }),
    fc.constantFrom(MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, 10_000, 30_000),
  );
  const count = fc.oneof(
    fc.integer({ min: 0, max: 3000 }),
    fc.constantFrom(MAX_ERRORS, MAX_ERRORS + 1, MAX_KEYS - 1, MAX_KEYS, 23_000),
  );
  const options: fc.Arbitrary<FuzzCase>[] = [
    fc
      .record({ depth, array: fc.boolean(), idempotent: fc.boolean() })
      .map((c) => ({ kind: 'nested' as const, ...c })),
    fc
      .record({ count, inArray: fc.boolean(), idempotent: fc.boolean() })
      .map((c) => ({ kind: 'keys' as const, ...c })),
    fc
      .oneof(
        fc.constantFrom(...INVALID_UTF8),
        fc.array(fc.integer({ min: 0x80, max: 0xff }), { minLength: 1, maxLength: 6 }),
      )
      .map((bytes) => ({ kind: 'utf8' as const, bytes })),
  ];
  if (params.length > 0) {
    const segment = fc
      .record({
        length: fc.oneof(
          fc.integer({ min: MAX_PARAM_LENGTH - 100, max: 6000 }),
          fc.constantFrom(MAX_PARAM_LENGTH, MAX_PARAM_LENGTH + 1),
        ),
        unit: fc.constantFrom('1', 'k', '%41', '_'),
      })
      .map(({ length, unit }) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length));
    options.push(
      fc
        .record({ param: fc.constantFrom(...params), segment })
        .map(({ param, segment }) => ({ kind: 'long-param' as const, param, segment })),
    );
  }
  return options;
}

function casesFor(endpoint: Endpoint): fc.Arbitrary<FuzzCase> {
  const params = [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const queryNames = [
    ...(endpoint.query?.integers ?? []),
    ...(endpoint.query?.booleans ?? []),
    ...(endpoint.query?.others ?? []),
  ];
  const options: fc.Arbitrary<FuzzCase>[] = [
    fc.jsonValue({ maxDepth: 3 }).map((value) => ({ kind: 'json' as const, value })),
    fc
      .dictionary(fc.constantFrom(...(endpoint.fields ?? ['name', 'value']), 'unknown_field'), anyValue, {
        maxKeys: 6,
      })
      .map((value) => ({ kind: 'fields' as const, value })),
    fc
      .record({
        contentType: fc.oneof(
          fc.constantFrom(...NON_JSON_TYPES).map((t) => ({ t, known: true })),
          fc.string({ maxLength: 40 }).map((t) => ({ t, known: false })),
        ),
        payload: fc.oneof(
          fc.constant(JSON.stringify(endpoint.validBody ?? {})),
          fc.string({ maxLength: 60 }),
        ),
      })
      .map(({ contentType, payload }) => ({
        kind: 'content-type' as const,
        contentType: contentType.t,
        known: contentType.known,
        payload,
      })),
    fc.nat().map((cut) => ({ kind: 'truncated' as const, cut })),
  ];
  options.push(...limitCases(params));
  if (params.length > 0) {
    options.push(
      fc
        .record({ param: fc.constantFrom(...params), segment: pathSegment })
        .map(({ param, segment }) => ({ kind: 'path' as const, param, segment })),
    );
  }
  options.push(
    fc
      .dictionary(
        fc.oneof(fc.constantFrom(...queryNames, 'unknown', 'hard_delete'), fc.string({ maxLength: 10 })),
        queryValue,
        {
          minKeys: 1,
          maxKeys: 4,
        },
      )
      .map((query) => ({ kind: 'query' as const, query })),
  );
  return fc.oneof(...options);
}

// --- the run ------------------------------------------------------------------------

interface Fixture {
  facility: number;
  plan: number;
  member: number;
}

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

let idempotencyKeys = 0;

function fill(path: string, fixture: Fixture, override?: { param: string; segment: string }): string {
  const values: Record<string, string> = {
    facility_id: String(fixture.facility),
    plan_id: String(fixture.plan),
    member_id: String(fixture.member),
    key: 'guest_passes',
  };
  if (override) values[override.param] = override.segment;
  return path.replace(/\{(\w+)\}/g, (_, name: string) => values[name]);
}

function build(endpoint: Endpoint, fixture: Fixture, c: FuzzCase): Sent {
  const validJson = JSON.stringify(endpoint.validBody ?? {});
  const json = { 'content-type': 'application/json' };
  const withBody = endpoint.fields !== undefined;
  const base = fill(endpoint.path, fixture);
  switch (c.kind) {
    case 'json':
      return { method: endpoint.method, url: base, headers: json, payload: JSON.stringify(c.value) };
    case 'fields':
      return { method: endpoint.method, url: base, headers: json, payload: JSON.stringify(c.value) };
    case 'path':
      return {
        method: endpoint.method,
        url: fill(endpoint.path, fixture, c),
        headers: withBody ? json : {},
        ...(withBody ? { payload: validJson } : {}),
      };
    case 'query': {
      const query = Object.entries(c.query)
        .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
        .join('&');
      return {
        method: endpoint.method,
        url: `${base}?${query}`,
        headers: withBody ? json : {},
        ...(withBody ? { payload: validJson } : {}),
      };
    }
    case 'content-type':
      return {
        method: endpoint.method,
        url: base,
        headers: { 'content-type': c.contentType },
        payload: c.payload,
      };
    case 'truncated':
      return {
        method: endpoint.method,
        url: base,
        headers: json,
        payload: validJson.slice(0, c.cut % validJson.length),
      };
    case 'nested': {
      const [open, close] = c.array ? ['[', ']'] : ['{"a":', '}'];
      const field = endpoint.fields?.[0] ?? 'value';
      // The outer object is one level: the value inside it is depth - 1 deep.
      const inner = `${open.repeat(c.depth - 1)}1${close.repeat(c.depth - 1)}`;
      const headers = c.idempotent ? { ...json, 'idempotency-key': `fuzz-${++idempotencyKeys}` } : json;
      return { method: endpoint.method, url: base, headers, payload: `{"${field}":${inner}}` };
    }
    case 'keys': {
      const names = Array.from({ length: c.count }, (_, i) => i.toString(36));
      // As keys of one object, or as items of an array inside a one-key object.
      const payload = c.inArray
        ? `{"${endpoint.fields?.[0] ?? 'value'}":[${names.map(() => '1').join(',')}]}`
        : `{${names.map((name) => `"k${name}":1`).join(',')}}`;
      const headers = c.idempotent ? { ...json, 'idempotency-key': `fuzz-${++idempotencyKeys}` } : json;
      return { method: endpoint.method, url: base, headers, payload };
    }
    case 'long-param':
      return {
        method: endpoint.method,
        url: fill(endpoint.path, fixture, c),
        headers: withBody ? json : {},
        ...(withBody ? { payload: validJson } : {}),
      };
    case 'utf8': {
      const field = endpoint.fields?.[0] ?? 'value';
      const payload = Buffer.concat([
        Buffer.from(`{"${field}":"a`),
        Buffer.from(c.bytes),
        Buffer.from('z"}'),
      ]);
      return { method: endpoint.method, url: base, headers: json, payload };
    }
  }
}

function isPositiveId(text: string): boolean {
  return /^\d{1,16}$/.test(text) && Number(text) >= 1 && Number(text) <= MAX_ID;
}

function isLastSegment(endpoint: Endpoint, param: string): boolean {
  return endpoint.path.endsWith(`{${param}}`);
}

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** The exact answer some cases must get, beyond "no 5xx". */
function checkExpected(endpoint: Endpoint, c: FuzzCase, response: TestResponse): void {
  const withBody = endpoint.fields !== undefined;
  const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (c.kind === 'json' && withBody && !isObject(c.value)) {
    if (/"(__proto__|constructor)":/.test(JSON.stringify(c.value))) {
      // Rejected by the JSON parser's prototype-poisoning guard (see the __proto__ test in http-bodies.test.ts).
      assert.equal(response.status, 400, response.text);
    } else {
      assertProblem(response, 400, 'validation_error');
      assert.equal(response.body.errors[0].location, 'body');
    }
  }
  if (c.kind === 'truncated' && withBody) assertProblem(response, 400, 'malformed_json');
  if (c.kind === 'content-type' && c.known && withBody)
    assertProblem(response, 415, 'unsupported_media_type');
  if (c.kind === 'path') {
    const text = decoded(c.segment);
    if (c.segment === '.' || c.segment === '..' || (c.segment === '' && isLastSegment(endpoint, c.param))) {
      // Dot segments are resolved away before routing, as every HTTP client does, and an empty
      // last segment is a trailing slash (/plans/ is /plans): another route.
    } else if (text === undefined) {
      assertProblem(response, 400, 'validation_error');
    } else if (c.param === 'key' ? !ENTITLEMENT_KEY.test(text) : !isPositiveId(text)) {
      const problem = assertProblem(response, 400, 'validation_error');
      const named = problem.errors.map((e: { field: string }) => e.field);
      assert.ok(named.includes(c.param), `expected an error for ${c.param}, got ${named.join(', ')}`);
    }
  }
  // DELETE reads a body sent with it (and ignores it once parsed); GET never reads one.
  const readsBody = endpoint.method !== 'GET';
  if (c.kind === 'nested' && readsBody && c.depth > MAX_DEPTH) {
    const problem = assertProblem(response, 400, 'validation_error');
    assert.match(problem.errors[0].message, /^is nested more than 32 levels deep/);
  }
  if (c.kind === 'keys' && readsBody) {
    // The object's keys, or the array's items plus the one key that holds the array.
    const keys = c.inArray ? c.count + 1 : c.count;
    if (keys > MAX_KEYS) {
      const problem = assertProblem(response, 400, 'validation_error');
      assert.equal(problem.errors[0].message, 'has more than 1000 keys and array items in all');
    } else if (withBody && !c.inArray && c.count > MAX_ERRORS) {
      // Every key is unknown: more problems than a problem document lists.
      const problem = assertProblem(response, 400, 'validation_error');
      assert.equal(problem.errors.length, MAX_ERRORS);
      assert.ok(problem.errors_omitted >= c.count - MAX_ERRORS, response.text.slice(0, 300));
    }
  }
  if (c.kind === 'long-param' && c.segment.length > MAX_PARAM_LENGTH) {
    const problem = assertProblem(response, 400, 'validation_error');
    assert.equal(problem.errors[0].location, 'path');
  }
  if (c.kind === 'utf8' && readsBody) {
    const payload = Buffer.concat([Buffer.from('"a'), Buffer.from(c.bytes), Buffer.from('z"')]);
    if (!isUtf8(payload)) assertProblem(response, 400, 'malformed_json');
  }
  if (c.kind === 'query') {
    for (const name of endpoint.query?.booleans ?? []) {
      if (name in c.query && c.query[name] !== 'true' && c.query[name] !== 'false') {
        assertProblem(response, 400, 'validation_error');
      }
    }
    for (const name of endpoint.query?.integers ?? []) {
      if (name in c.query && !isPositiveId(c.query[name])) assertProblem(response, 400, 'validation_error');
    }
  }
}

async function send(api: Api, sent: Sent): Promise<TestResponse> {
  const response = await api.app.inject({
    method: sent.method as 'GET',
    url: sent.url,
    headers: sent.headers,
    ...(sent.payload !== undefined ? { payload: sent.payload } : {}),
  });
  let body: unknown;
  try {
    body = response.body === '' ? undefined : JSON.parse(response.body);
  } catch {
    body = undefined;
  }
  return { status: response.statusCode, headers: response.headers, body, text: response.body };
}

describeEachDialect(
  'robustness',
  (api) => {
    async function createFixture(): Promise<Fixture> {
      const facility = api.newFacility();
      const base = `/admin/facilities/${facility}`;
      const plan = await api.post(`${base}/plans`, { name: 'Fixture plan' });
      assert.equal(plan.status, 201, plan.text);
      const entitlement = await api.put(`${base}/plans/${plan.body.id}/entitlements/guest_passes`, {
        value: 2,
      });
      assert.equal(entitlement.status, 201, entitlement.text);
      const member = await api.post(`${base}/members`, {
        first_name: 'Fixture',
        email: 'fixture@example.com',
        plan_id: plan.body.id,
      });
      assert.equal(member.status, 201, member.text);
      assert.equal((await api.get(`${base}/policy`)).status, 200);
      return { facility, plan: plan.body.id, member: member.body.id };
    }

    /**
     * What a request to this endpoint could write in the fixture's facility, as
     * users read it: the plans and their entitlements, the members, or the policy.
     */
    async function snapshot(endpoint: Endpoint, fixture: Fixture): Promise<string> {
      const base = `/admin/facilities/${fixture.facility}`;
      const urls = endpoint.path.includes('/members')
        ? [`${base}/members?status=${ALL_STATUSES}&limit=1000`]
        : endpoint.path.includes('/policy')
          ? [`${base}/policy`]
          : endpoint.path.includes('/plans')
            ? [`${base}/plans?include_inactive=true&limit=1000`, `${base}/plans/${fixture.plan}/entitlements`]
            : [];
      const reads = await Promise.all(urls.map((url) => api.get(url)));
      return JSON.stringify(reads.map((r) => [r.status, r.body]));
    }

    for (const endpoint of ENDPOINTS) {
      test(`${endpoint.method} ${endpoint.path}: random and malformed input`, async (t) => {
        const fixture = await createFixture();
        let before = await snapshot(endpoint, fixture);
        const statuses = new Map<number, number>();
        await fc.assert(
          fc.asyncProperty(casesFor(endpoint), async (c) => {
            const sent = build(endpoint, fixture, c);
            const response = await send(api, sent);
            const where = `${sent.method} ${sent.url.slice(0, 300)} ${JSON.stringify(sent.headers)} ${String(sent.payload ?? '').slice(0, 300)}`;
            statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
            assert.ok(response.status < 500, `${where} -> ${response.status} ${response.text}`);
            if (response.status >= 400) {
              assert.match(String(response.headers['content-type']), /^application\/problem\+json/, where);
              assert.equal(response.body?.status, response.status, `${where}: ${response.text}`);
              assert.equal(typeof response.body.code, 'string');
              assert.equal(response.body.type, `urn:facility-admin:problem:${response.body.code}`);
              assert.equal(typeof response.body.detail, 'string');
              assert.equal(typeof response.body.request_id, 'string');
              if (response.body.errors !== undefined) {
                assert.ok(response.body.errors.length <= MAX_ERRORS, where);
                if (response.body.errors_omitted !== undefined) {
                  assert.equal(response.body.errors.length, MAX_ERRORS, where);
                  assert.ok(response.body.errors_omitted >= 1, where);
                }
              }
            } else if (response.status === 204) {
              assert.equal(response.text, '', where);
            } else {
              assert.match(String(response.headers['content-type']), /^application\/json/, where);
              assert.notEqual(response.body, undefined, where);
            }
            checkExpected(endpoint, c, response);
            const after = await snapshot(endpoint, fixture);
            if (response.status >= 400) {
              assert.equal(
                after,
                before,
                `${where} was rejected (${response.status}) but changed the facility`,
              );
            }
            before = after;
          }),
          { numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}) },
        );
        const seen = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`);
        t.diagnostic(`statuses ${seen.join(', ')}`);
        // The fuzzing reached the validation layer, not only one early rejection.
        assert.ok((statuses.get(400) ?? 0) > 0, `no 400 among ${JSON.stringify([...statuses])}`);
      });
    }

    test('an entitlement value too large to be a finite number is 400 and not stored', async () => {
      const fixture = await createFixture();
      const url = `/admin/facilities/${fixture.facility}/plans/${fixture.plan}/entitlements`;
      const one = await send(api, {
        method: 'PUT',
        url: `${url}/visits`,
        headers: { 'content-type': 'application/json' },
        payload: '{"value": 1e400}',
      });
      assertProblem(one, 400, 'validation_error');
      const all = await send(api, {
        method: 'PUT',
        url,
        headers: { 'content-type': 'application/json' },
        payload: '{"entitlements": {"visits": -1e400}}',
      });
      assertProblem(all, 400, 'validation_error');
      const read = await api.get(url);
      assert.deepEqual(read.body, { entitlements: [{ key: 'guest_passes', value: 2 }] });
    });
  },
  { rateLimitPerMinute: 0 },
);
