/**
 * The "Access" section of the contract, for every operation of the OpenAPI
 * document (test/api-document.ts), each sent as its example request
 * (test/operation-examples.ts): no key, a garbage key, another scheme or a
 * revoked key is 401; each role gets what the access table
 * (test/access-table.ts) says, a refusal being 403 with nothing written;
 * another facility's key is 403 with nothing written. "Nothing written" is
 * every row the facility has (test/facility-state.ts), before and after.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { revokeApiKey } from '../src/infrastructure/api-keys/api-key.repository.js';
import { createApiKey } from '../src/infrastructure/api-keys/api-key.service.js';
import { ACCESS, bearer, CREDENTIALS, NEEDS_EVERY_FACILITY, PERSON_ONLY, ROLES } from './access-table.js';
import { OPERATIONS, type Operation, successStatuses } from './api-document.js';
import { facilityState, unclassifiedTables } from './facility-state.js';
import { assertProblem, describeEachDialect } from './harness.js';
import { inject } from './inject.js';
import { type ExampleContext, exampleRequest, exampleTableGaps } from './operation-examples.js';

const ADMIN_API_KEY = 'access-matrix-admin-key-0123456789';
const admin = bearer(ADMIN_API_KEY);
const scoped = (operation: Operation) => operation.pathParameters.includes('facility_id');

describeEachDialect(
  'access matrix',
  (api) => {
    let revoked: Record<string, string>;
    before(async () => {
      const key = await createApiKey(api.app.db, { name: 'revoked', role: 'admin', facilityIds: 'all' });
      await revokeApiKey(api.app.db, key.key.id, new Date().toISOString());
      revoked = bearer(key.secret);
    });

    /** The operation's example request in a new facility, sent with the given headers. */
    async function sendAs(
      operation: Operation,
      headersFor: (facility: number, person?: Record<string, string>) => Promise<Record<string, string>>,
    ) {
      const context: ExampleContext = { api, facility: api.newFacility(), auth: admin };
      const request = await exampleRequest(operation, context);
      const headers = await headersFor(context.facility, request.person);
      const before = await facilityState(api.app, context.facility);
      const response = await inject(api.app, { ...request, headers: { ...request.headers, ...headers } });
      const written = (await facilityState(api.app, context.facility)) !== before;
      return { response, written, where: `${request.method} ${request.url}` };
    }

    test('every secured operation of the document has a row in the access table, and every row an operation', () => {
      const secured = OPERATIONS.filter((operation) => operation.secured).map((o) => o.operationId);
      assert.deepEqual(
        secured.filter((id) => !(id in ACCESS)),
        [],
        'operations without a row in test/access-table.ts',
      );
      assert.deepEqual(
        Object.keys(ACCESS).filter((id) => !secured.includes(id)),
        [],
        'rows of test/access-table.ts for no secured operation',
      );
    });

    test("the document's x-roles of each operation are the table's row", () => {
      for (const operation of OPERATIONS.filter((o) => o.secured && o.operationId !== 'createFacility')) {
        const documented = operation.roles;
        const row = ACCESS[operation.operationId] ?? {};
        const allowed = ROLES.filter((role) => row[role]);
        assert.deepEqual(documented, allowed, operation.operationId);
      }
    });

    test('every operation of the document has an example request, and every example an operation', () => {
      assert.deepEqual(exampleTableGaps(OPERATIONS), { missing: [], stale: [] });
    });

    test('every table is a facility’s (compared for "nothing written") or says why not', async () => {
      assert.deepEqual(await unclassifiedTables(api.app), []);
    });

    for (const operation of OPERATIONS.filter((o) => !o.secured)) {
      test(`${operation.operationId}: anyone may call it, without a key`, async () => {
        const { response } = await sendAs(operation, async () => ({}));
        assert.ok(
          successStatuses(operation).includes(response.status),
          `${response.status} ${response.text}`,
        );
      });
    }

    for (const operation of OPERATIONS.filter((o) => o.secured)) {
      describe(`${operation.operationId} (${operation.method} ${operation.path})`, () => {
        test('no key, a garbage key, another scheme and a revoked key are 401 with WWW-Authenticate, and write nothing', async () => {
          const refusals: Record<string, string>[] = [
            {},
            bearer('garbage'),
            { authorization: 'Basic abc' },
            revoked,
          ];
          for (const headers of refusals) {
            const { response, written, where } = await sendAs(operation, async () => headers);
            assertProblem(response, 401, 'unauthenticated');
            assert.match(String(response.headers['www-authenticate']), /^Bearer/, where);
            assert.equal(written, false, `${where} refused with 401 but wrote`);
          }
        });

        for (const role of ROLES) {
          const allowed = ACCESS[operation.operationId]?.[role];
          test(`${role}, a key of the facility: ${allowed ? 'succeeds' : '403 forbidden, and nothing written'}`, async () => {
            assert.ok(allowed !== undefined, `${operation.operationId} has no row in test/access-table.ts`);
            const { response, written, where } = await sendAs(operation, (f) =>
              CREDENTIALS[role](api.app, [f]),
            );
            const personOnly = PERSON_ONLY[operation.operationId];
            if (allowed && personOnly) {
              assertProblem(response, personOnly.status, personOnly.code);
              assert.equal(written, false, `${where} refused a key but wrote`);
            } else if (allowed) {
              const expected = successStatuses(operation);
              assert.ok(expected.includes(response.status), `${where}: ${response.status} ${response.text}`);
            } else {
              assertProblem(response, 403, 'forbidden');
              assert.equal(written, false, `${where} refused with 403 but wrote`);
            }
          });
        }

        if (PERSON_ONLY[operation.operationId]) {
          test('a key cannot: the person the example signed in, with a role in one facility, may call it', async () => {
            const { response, where } = await sendAs(operation, async (_facility, person) => {
              assert.ok(person, `the example of ${operation.operationId} signs no person in`);
              return person;
            });
            assert.ok(successStatuses(operation).includes(response.status), `${where}: ${response.text}`);
          });
        } else if (scoped(operation)) {
          test('an admin key of another facility is 403 forbidden and writes nothing', async () => {
            const other = api.newFacility();
            const { response, written, where } = await sendAs(operation, () =>
              CREDENTIALS.admin(api.app, [other]),
            );
            assertProblem(response, 403, 'forbidden');
            assert.equal(written, false, `${where} refused with 403 but wrote`);
          });
        } else if (NEEDS_EVERY_FACILITY.has(operation.operationId)) {
          test('names no facility and needs a role for every facility: an admin key for all may call it', async () => {
            const { response, where } = await sendAs(operation, async () => admin);
            assert.ok(successStatuses(operation).includes(response.status), `${where}: ${response.text}`);
          });
        } else {
          test('names no facility: a key of any one facility may call it', async () => {
            const other = api.newFacility();
            const { response, where } = await sendAs(operation, () => CREDENTIALS.admin(api.app, [other]));
            assert.ok(successStatuses(operation).includes(response.status), `${where}: ${response.text}`);
          });
        }
      });
    }
  },
  // Hundreds of refused requests from one address, on purpose: their throttle is tested in auth-failure-limit.test.ts.
  { authMode: 'api-key', adminApiKey: ADMIN_API_KEY, authFailureLimit: 0 },
);
