/**
 * Unknown ids (contract: "General" and "Errors"): on every operation of the
 * OpenAPI document, an id in the path that names nothing is 404 with the code
 * of what it names, and writes nothing; the rest of the request is the
 * operation's example (test/operation-examples.ts), so that the unknown id is
 * its only fault. Facilities are implicit: every facility id exists.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ErrorCode } from '../src/core/errors.js';
import { facilityState } from './facility-state.js';
import { assertProblem, describeEachDialect } from './harness.js';
import { assertProblemShape, MAX_SAFE, nameOf, OPERATIONS } from './http-rules.js';
import { inject } from './inject.js';
import { exampleRequest } from './operation-examples.js';

/** What each path parameter names, and the code of one that names nothing. */
const NOT_FOUND: Record<string, { code: ErrorCode; unknown: string }> = {
  plan_id: { code: 'plan_not_found', unknown: MAX_SAFE },
  member_id: { code: 'member_not_found', unknown: MAX_SAFE },
  freeze_id: { code: 'freeze_not_found', unknown: MAX_SAFE },
  check_in_id: { code: 'check_in_not_found', unknown: MAX_SAFE },
  endpoint_id: { code: 'webhook_endpoint_not_found', unknown: MAX_SAFE },
  delivery_id: { code: 'delivery_not_found', unknown: MAX_SAFE },
  import_id: { code: 'import_not_found', unknown: MAX_SAFE },
  staff_user_id: { code: 'staff_not_found', unknown: MAX_SAFE },
  api_key_id: { code: 'api_key_not_found', unknown: MAX_SAFE },
  session_id: { code: 'session_not_found', unknown: MAX_SAFE },
  key: { code: 'entitlement_not_found', unknown: 'never_set' },
};
/** PUT of one entitlement creates the key it names: an unknown key is not an error there. */
const CREATES_WHAT_IT_NAMES = new Set(['setEntitlement:key']);

describeEachDialect('HTTP rules: unknown ids', (api) => {
  test('every path parameter but facility_id says what a missing one is', () => {
    const params = new Set(OPERATIONS.flatMap((operation) => operation.pathParameters));
    params.delete('facility_id');
    assert.deepEqual(
      [...params].filter((param) => !(param in NOT_FOUND)),
      [],
      'add the parameter to NOT_FOUND in test/http-not-found.test.ts',
    );
  });

  test('an id that names nothing is 404 with the code of what it names, on every operation, and writes nothing', async () => {
    let checked = 0;
    for (const operation of OPERATIONS) {
      for (const param of operation.pathParameters.filter((p) => p !== 'facility_id')) {
        if (CREATES_WHAT_IT_NAMES.has(`${operation.operationId}:${param}`)) continue;
        const { code, unknown } = NOT_FOUND[param];
        const facility = api.newFacility();
        const request = await exampleRequest(operation, { api, facility, auth: {} }, { [param]: unknown });
        const before = await facilityState(api.app, facility);
        const response = await inject(api.app, request);
        assert.equal(response.status, 404, `${nameOf(operation)} with ${param}=${unknown}: ${response.text}`);
        assertProblem(response, 404, code);
        assertProblemShape(response, request.url.split('?')[0]);
        assert.equal(await facilityState(api.app, facility), before, `${nameOf(operation)} wrote`);
        checked++;
      }
    }
    assert.ok(checked >= 20, `${checked} unknown ids tried`);
  });

  test('a resource of another facility is 404 with the same code, on every operation that names one', async () => {
    for (const operation of OPERATIONS) {
      const [first] = operation.pathParameters.filter((name) => name !== 'facility_id');
      if (first === undefined || CREATES_WHAT_IT_NAMES.has(`${operation.operationId}:${first}`)) continue;
      // People and keys are reached by their own id, not through a facility's path.
      if (!operation.pathParameters.includes('facility_id')) continue;
      const owner = api.newFacility();
      const { params } = await exampleRequest(operation, { api, facility: owner, auth: {} });
      const { facility_id: _, ...ids } = params;
      const other = api.newFacility();
      const request = await exampleRequest(operation, { api, facility: other, auth: {} }, ids);
      const response = await inject(api.app, request);
      assert.equal(response.status, 404, `${nameOf(operation)} in facility ${other}: ${response.text}`);
      assertProblem(response, 404, NOT_FOUND[first].code);
    }
  });
});
