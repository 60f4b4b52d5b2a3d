/**
 * The exact answer some fuzz cases must get, beyond what every answer must be
 * (test/robustness.test.ts): a body that is not an object, truncated JSON, a
 * foreign media type, a bad path id, nesting or keys past the limits, bytes
 * that are not UTF-8, a bad boolean or id in the query.
 */
import assert from 'node:assert/strict';
import { isUtf8 } from 'node:buffer';
import { assertProblem, type TestResponse } from '../harness.js';
import type { FuzzCase } from './cases.js';
import type { FuzzTarget } from './target.js';
import { MAX_DEPTH, MAX_ERRORS, MAX_ID, MAX_KEYS, MAX_PARAM_LENGTH } from './values.js';

const ENTITLEMENT_KEY = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

function isPositiveId(text: string): boolean {
  return /^\d{1,16}$/.test(text) && Number(text) >= 1 && Number(text) <= MAX_ID;
}

function isLastSegment(target: FuzzTarget, param: string): boolean {
  return target.operation.path.endsWith(`{${param}}`);
}

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** The cases whose request is a JSON body (test/fuzz/cases.ts, `build`). */
const SENT_AS_JSON = new Set<FuzzCase['kind']>(['json', 'fields', 'truncated', 'nested', 'keys', 'utf8']);

/** The exact answer some cases must get, beyond "no 5xx". */
export function checkExpected(target: FuzzTarget, c: FuzzCase, response: TestResponse): void {
  // A JSON body: the body cases' rules hold (a CSV body is refused as JSON before its own checks).
  const withBody = target.fields !== undefined;
  // An operation that takes a body of another media type only (the CSV import) refuses a JSON one
  // before reading a byte of it.
  const takesOtherBody = target.operation.bodyTypes.length > 0 && !withBody;
  if (takesOtherBody && SENT_AS_JSON.has(c.kind)) assertProblem(response, 415, 'unsupported_media_type');
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
  if (c.kind === 'content-type' && c.known && target.validPayload !== undefined)
    assertProblem(response, 415, 'unsupported_media_type');
  if (c.kind === 'path') {
    const text = decoded(c.segment);
    if (c.segment === '.' || c.segment === '..' || (c.segment === '' && isLastSegment(target, c.param))) {
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
  const readsBody = target.operation.method !== 'GET' && !takesOtherBody;
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
    for (const name of target.query.booleans) {
      if (name in c.query && c.query[name] !== 'true' && c.query[name] !== 'false') {
        assertProblem(response, 400, 'validation_error');
      }
    }
    for (const name of target.query.ids) {
      if (name in c.query && !isPositiveId(c.query[name])) assertProblem(response, 400, 'validation_error');
    }
  }
}
