/**
 * Media types and JSON parsing (contract: "General" and "Errors"): a body is
 * read only as application/json (any case, any charset parameter), anything
 * else is 415; text that is not JSON is 400 malformed_json; neither writes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertProblem, describeEachDialect } from './harness.js';
import {
  assertProblemShape,
  documentedRequest,
  JSON_BODY_OPERATIONS,
  nameOf,
  OPERATIONS,
  raw,
  resourceHelpers,
} from './http-rules.js';

/** Media types a body may be sent in; each operation takes some (the document says which) and refuses the rest. */
const MEDIA_TYPES = [
  'application/json',
  'text/csv',
  'text/plain',
  'text/plain; charset=utf-8',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/jsonx',
  'application/problem+json',
];
const baseType = (type: string) => type.split(';')[0].trim().toLowerCase();

describeEachDialect('HTTP rules: media types and JSON parsing', (api) => {
  const { planNames } = resourceHelpers(api);

  test('a body in a media type the operation does not take is 415, on every operation with a body', async () => {
    let checked = 0;
    for (const operation of OPERATIONS.filter((o) => o.bodyTypes.length > 0)) {
      const { method, url, payload } = documentedRequest(operation, {
        facility_id: String(api.newFacility()),
      });
      const taken = operation.bodyTypes.map(baseType);
      for (const contentType of MEDIA_TYPES.filter((type) => !taken.includes(baseType(type)))) {
        // Well-formed in the type it is sent as, so that the type alone is refused.
        const sent =
          baseType(contentType) === 'application/json' && !taken.includes('application/json')
            ? '{}'
            : payload;
        const response = await raw(api, method, url, {
          payload: sent,
          headers: { 'content-type': contentType },
        });
        assert.equal(response.status, 415, `${nameOf(operation)} as ${contentType}: ${response.text}`);
        assertProblem(response, 415, 'unsupported_media_type');
        assertProblemShape(response, url);
        checked++;
      }
      const none = await raw(api, method, url, { payload });
      assert.equal(none.status, 415, `${nameOf(operation)} without a Content-Type: ${none.text}`);
      assertProblem(none, 415, 'unsupported_media_type');
    }
    assert.ok(checked > 0);
  });

  test('a rejected media type writes nothing', async () => {
    const facility = api.newFacility();
    const url = `/admin/facilities/${facility}/plans`;
    const text = await raw(api, 'POST', url, {
      payload: '{"name":"Text plan"}',
      headers: { 'content-type': 'text/plain' },
    });
    assertProblem(text, 415, 'unsupported_media_type');
    const none = await raw(api, 'POST', url, { payload: '{"name":"Bare plan"}' });
    assertProblem(none, 415, 'unsupported_media_type');
    assert.deepEqual(await planNames(facility), []);
    const policy = await raw(api, 'PATCH', `/admin/facilities/${facility}/policy`, {
      payload: '{"currency":"EUR"}',
      headers: { 'content-type': 'text/plain' },
    });
    assertProblem(policy, 415, 'unsupported_media_type');
    assert.equal((await api.get(`/admin/facilities/${facility}/policy`)).body.currency, 'USD');
  });

  test('application/json with a charset parameter, or in upper case, is accepted', async () => {
    const facility = api.newFacility();
    const url = `/admin/facilities/${facility}/plans`;
    const variants = [
      'application/json; charset=utf-8',
      'application/json;charset=UTF-8',
      'Application/JSON',
    ];
    for (const [i, contentType] of variants.entries()) {
      const response = await raw(api, 'POST', url, {
        payload: JSON.stringify({ name: `Plan ${i}` }),
        headers: { 'content-type': contentType },
      });
      assert.equal(response.status, 201, `${contentType}: ${response.text}`);
      assert.equal(response.body.name, `Plan ${i}`);
    }
    assert.deepEqual(await planNames(facility), ['Plan 0', 'Plan 1', 'Plan 2']);
  });

  test('unparseable JSON is 400 malformed_json and writes nothing', async () => {
    const facility = api.newFacility();
    for (const operation of JSON_BODY_OPERATIONS) {
      const { method, url } = documentedRequest(operation, { facility_id: String(facility) });
      for (const payload of [
        '{"name":',
        '{name: "x"}',
        "{'name':'x'}",
        '{"name":"x"}}',
        '{"name":"x",}',
        'nul',
        '{"a":1',
      ]) {
        const response = await raw(api, method, url, {
          payload,
          headers: { 'content-type': 'application/json' },
        });
        assert.equal(response.status, 400, `${nameOf(operation)} with ${payload}: ${response.text}`);
        assertProblem(response, 400, 'malformed_json');
        assertProblemShape(response, url);
      }
    }
    assert.deepEqual(await planNames(facility), []);
    const members = await api.get(`/admin/facilities/${facility}/members`);
    assert.deepEqual(members.body.members, []);
  });

  test('an empty body with Content-Type JSON is 400 malformed_json', async () => {
    const facility = api.newFacility();
    const url = `/admin/facilities/${facility}/plans`;
    const response = await raw(api, 'POST', url, {
      payload: '',
      headers: { 'content-type': 'application/json' },
    });
    assertProblem(response, 400, 'malformed_json');
  });
});
