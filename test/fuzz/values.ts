/**
 * The values the fuzz suite (test/robustness.test.ts) sends: values that sit
 * on or next to a rule of some field, random JSON, path segments and query
 * values of every kind, media types that are not JSON, and byte sequences
 * that are never UTF-8.
 */
import fc from 'fast-check';

export const MAX_ID = Number.MAX_SAFE_INTEGER;
/** The default limits: JSON_MAX_DEPTH, JSON_MAX_KEYS, PROBLEM_MAX_ERRORS and the router's parameter length. */
export const MAX_DEPTH = 32;
export const MAX_KEYS = 1000;
export const MAX_ERRORS = 100;
export const MAX_PARAM_LENGTH = 1000;

/** Values that sit on or next to a rule of some field. */
export const edgeValue = fc.constantFrom<unknown>(
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

export const anyValue: fc.Arbitrary<unknown> = fc.oneof(
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
export const pathSegment = fc.oneof(
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

export const queryValue = fc.oneof(
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

export const NON_JSON_TYPES = [
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

/** Byte sequences that are never UTF-8: a lone continuation, overlong forms, surrogates, past U+10FFFF, cut short. */
export const INVALID_UTF8 = [
  [0x80],
  [0xff],
  [0xc0, 0xaf],
  [0xe0, 0x80, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xe2, 0x82],
];
