/**
 * The cases the fuzz suite (test/robustness.test.ts) sends to one operation,
 * and the request each case is: random JSON, random objects built from the
 * operation's own field names, random path segments and query values, random
 * content types, truncated JSON, bodies nested deep or holding many keys,
 * path parameters longer than the router takes, bytes that are not UTF-8.
 */
import fc from 'fast-check';
import type { FuzzTarget } from './target.js';
import {
  anyValue,
  INVALID_UTF8,
  MAX_DEPTH,
  MAX_ERRORS,
  MAX_KEYS,
  MAX_PARAM_LENGTH,
  NON_JSON_TYPES,
  pathSegment,
  queryValue,
} from './values.js';

export interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

export type FuzzCase =
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

export function casesFor(target: FuzzTarget): fc.Arbitrary<FuzzCase> {
  const params = target.operation.pathParameters;
  const queryNames = [...target.query.ids, ...target.query.booleans, ...target.query.others];
  const options: fc.Arbitrary<FuzzCase>[] = [
    fc.jsonValue({ maxDepth: 3 }).map((value) => ({ kind: 'json' as const, value })),
    fc
      .dictionary(fc.constantFrom(...(target.fields ?? ['name', 'value']), 'unknown_field'), anyValue, {
        maxKeys: 6,
      })
      .map((value) => ({ kind: 'fields' as const, value })),
    fc
      .record({
        contentType: fc.oneof(
          fc.constantFrom(...NON_JSON_TYPES).map((t) => ({ t, known: true })),
          fc.string({ maxLength: 40 }).map((t) => ({ t, known: false })),
        ),
        payload: fc.oneof(fc.constant(target.validPayload ?? '{}'), fc.string({ maxLength: 60 })),
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

let idempotencyKeys = 0;

/** The path with the target's ids, one parameter replaced by the case's segment. */
function fill(
  path: string,
  params: Record<string, string>,
  override?: { param: string; segment: string },
): string {
  const values = { ...params, ...(override ? { [override.param]: override.segment } : {}) };
  return path.replace(/\{(\w+)\}/g, (_, name: string) => values[name]);
}

export function build(target: FuzzTarget, c: FuzzCase): Sent {
  const { method, path } = target.operation;
  const validJson = target.validPayload ?? '{}';
  const json = { 'content-type': 'application/json' };
  // The example's body in its own media type, for cases that vary something else.
  const valid: Pick<Sent, 'headers' | 'payload'> =
    target.validPayload === undefined
      ? { headers: {} }
      : { headers: { 'content-type': target.contentType as string }, payload: target.validPayload };
  const base = fill(path, target.params);
  switch (c.kind) {
    case 'json':
      return { method, url: base, headers: json, payload: JSON.stringify(c.value) };
    case 'fields':
      return { method, url: base, headers: json, payload: JSON.stringify(c.value) };
    case 'path':
      return {
        method,
        url: fill(path, target.params, c),
        ...valid,
      };
    case 'query': {
      const query = Object.entries(c.query)
        .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
        .join('&');
      return {
        method,
        url: `${base}?${query}`,
        ...valid,
      };
    }
    case 'content-type':
      return {
        method,
        url: base,
        headers: { 'content-type': c.contentType },
        payload: c.payload,
      };
    case 'truncated':
      return {
        method,
        url: base,
        headers: json,
        payload: validJson.slice(0, c.cut % validJson.length),
      };
    case 'nested': {
      const [open, close] = c.array ? ['[', ']'] : ['{"a":', '}'];
      const field = target.fields?.[0] ?? 'value';
      // The outer object is one level: the value inside it is depth - 1 deep.
      const inner = `${open.repeat(c.depth - 1)}1${close.repeat(c.depth - 1)}`;
      const headers = c.idempotent ? { ...json, 'idempotency-key': `fuzz-${++idempotencyKeys}` } : json;
      return { method, url: base, headers, payload: `{"${field}":${inner}}` };
    }
    case 'keys': {
      const names = Array.from({ length: c.count }, (_, i) => i.toString(36));
      // As keys of one object, or as items of an array inside a one-key object.
      const payload = c.inArray
        ? `{"${target.fields?.[0] ?? 'value'}":[${names.map(() => '1').join(',')}]}`
        : `{${names.map((name) => `"k${name}":1`).join(',')}}`;
      const headers = c.idempotent ? { ...json, 'idempotency-key': `fuzz-${++idempotencyKeys}` } : json;
      return { method, url: base, headers, payload };
    }
    case 'long-param':
      return {
        method,
        url: fill(path, target.params, c),
        ...valid,
      };
    case 'utf8': {
      const field = target.fields?.[0] ?? 'value';
      const payload = Buffer.concat([
        Buffer.from(`{"${field}":"a`),
        Buffer.from(c.bytes),
        Buffer.from('z"}'),
      ]);
      return { method, url: base, headers: json, payload };
    }
  }
}
