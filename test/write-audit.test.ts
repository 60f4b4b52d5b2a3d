/**
 * Every write is in the audit trail (issue 38, item 1): each operation of
 * the OpenAPI document that writes (POST, PUT, PATCH, DELETE) is performed as
 * its example request (test/operation-examples.ts) with an API key, and the
 * facility's trail (GET …/audit-events) then holds an entry of it that names
 * the key, the resource written and what changed; no secret is in the trail
 * (webhook signing secrets, sealed or not, API key secrets and their hashes).
 * WRITES says what each write's entry is; the test fails on a write that has
 * no row there, or no example.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { createApiKey, hashSecret } from '../src/infrastructure/api-keys/api-key.service.js';
import { bearer } from './access-table.js';
import { OPERATIONS, type Operation } from './api-document.js';
import { describeEachDialect, type TestResponse, testClock } from './harness.js';
import { inject } from './inject.js';
import { type ExampleContext, exampleRequest, finishedImport } from './operation-examples.js';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const WRITE_OPERATIONS = OPERATIONS.filter((operation) => WRITE_METHODS.has(operation.method));

/**
 * The entry a write leaves: its resource type and action, and which id it
 * names: the created resource's (`created`, the answer's id), a path
 * parameter's, the facility's (the policy), or any (an import's members).
 */
type Expected =
  | {
      resourceType: string;
      action: string;
      resourceId: 'created' | 'check_in' | 'facility' | 'any' | { param: string };
      /** The trail the entry is in: the facility's (default), or the created facility's. */
      trail?: 'created';
      /** Done by the person the example signed in, not the key (test/access-table.ts, PERSON_ONLY). */
      by?: 'person';
    }
  | { notAudited: string; by?: 'person' };
const param = (name: string) => ({ param: name });

const WRITES: Record<string, Expected> = {
  signIn: { notAudited: 'a session is a sign-in, not a change of data' },
  signInWithLink: { notAudited: "the link's use is journaled as the person's own change, not the key's" },
  signOut: { notAudited: 'a session is a sign-in, not a change of data' },
  signOutEverywhere: { notAudited: 'a session is a sign-in, not a change of data' },
  endMySession: { notAudited: 'a session is a sign-in, not a change of data', by: 'person' },
  // Their own change: the entry names the person (with a viewer role in the facility), not the key.
  changePassword: { resourceType: 'staff_user', action: 'update', resourceId: 'any', by: 'person' },
  requestPasswordReset: {
    notAudited: 'a link changes no field of the person; its use does (password, state)',
  },
  resendStaffInvitation: {
    notAudited: 'a link changes no field of the person; its use does (password, state)',
  },
  sendStaffPasswordReset: {
    notAudited: 'a link changes no field of the person; its use does (password, state)',
  },
  createFacility: { resourceType: 'facility', action: 'create', resourceId: 'created', trail: 'created' },
  updateFacility: { resourceType: 'facility', action: 'update', resourceId: 'facility' },
  inviteStaff: { resourceType: 'staff_user', action: 'create', resourceId: 'created' },
  updateStaff: { resourceType: 'staff_user', action: 'update', resourceId: param('staff_user_id') },
  createApiKey: { resourceType: 'api_key', action: 'create', resourceId: 'created' },
  revokeApiKey: { resourceType: 'api_key', action: 'delete', resourceId: param('api_key_id') },
  createPlan: { resourceType: 'plan', action: 'create', resourceId: 'created' },
  updatePlan: { resourceType: 'plan', action: 'update', resourceId: param('plan_id') },
  deletePlan: { resourceType: 'plan', action: 'delete', resourceId: param('plan_id') },
  replaceEntitlements: { resourceType: 'entitlements', action: 'update', resourceId: param('plan_id') },
  // A key the plan did not have, and one it had.
  setEntitlement: { resourceType: 'entitlements', action: 'create', resourceId: param('plan_id') },
  deleteEntitlement: { resourceType: 'entitlements', action: 'delete', resourceId: param('plan_id') },

  createMember: { resourceType: 'member', action: 'create', resourceId: 'created' },
  updateMember: { resourceType: 'member', action: 'update', resourceId: param('member_id') },
  deleteMember: { resourceType: 'member', action: 'delete', resourceId: param('member_id') },
  // The job writes the file's members, each an entry with the key that sent the file.
  importMembers: { resourceType: 'member', action: 'create', resourceId: 'any' },

  createFreeze: { resourceType: 'freeze', action: 'create', resourceId: 'created' },
  // A cancelled freeze is kept, with cancelled_at.
  cancelFreeze: { resourceType: 'freeze', action: 'update', resourceId: param('freeze_id') },

  createCredential: { resourceType: 'credential', action: 'create', resourceId: 'created' },
  // Kept, with revoked_at, as a revoked API key is.
  revokeCredential: { resourceType: 'credential', action: 'delete', resourceId: param('credential_id') },

  updatePolicy: { resourceType: 'policy', action: 'update', resourceId: 'facility' },

  decideAccess: { resourceType: 'check_in', action: 'create', resourceId: 'check_in' },
  checkOut: { resourceType: 'check_in', action: 'update', resourceId: param('check_in_id') },

  createWebhookEndpoint: { resourceType: 'webhook_endpoint', action: 'create', resourceId: 'created' },
  updateWebhookEndpoint: {
    resourceType: 'webhook_endpoint',
    action: 'update',
    resourceId: param('endpoint_id'),
  },
  deleteWebhookEndpoint: {
    resourceType: 'webhook_endpoint',
    action: 'delete',
    resourceId: param('endpoint_id'),
  },
  rotateWebhookSecret: {
    resourceType: 'webhook_endpoint',
    action: 'update',
    resourceId: param('endpoint_id'),
  },
  testWebhookEndpoint: { resourceType: 'webhook_delivery', action: 'create', resourceId: 'created' },
  retryWebhookDelivery: {
    resourceType: 'webhook_delivery',
    action: 'update',
    resourceId: param('delivery_id'),
  },
};

interface AuditEntry {
  id: number;
  facility_id: number;
  resource_type: string;
  resource_id: string;
  action: string;
  api_key_id: number | null;
  api_key_name: string;
  actor: { type: string; id: number | null; name: string };
  changes: Record<string, { before: unknown; after: unknown }>;
  request_id: string | null;
}

const KEY_NAME = 'audit trail writer';
/** The app's clock: it moves on before each write, so that a write's times differ from its setup's. */
const clock = testClock('2026-03-09T09:00:00.000Z');

describeEachDialect(
  'every write is audited',
  (api) => {
    let key = { id: 0, secret: '' };
    let auth: Record<string, string> = {};
    before(async () => {
      const made = await createApiKey(api.app.db, { name: KEY_NAME, role: 'admin', facilityIds: 'all' });
      key = { id: made.key.id, secret: made.secret };
      auth = bearer(made.secret);
    });

    /** The facility's whole trail, every page. */
    async function trailOf(facility: number): Promise<AuditEntry[]> {
      const entries: AuditEntry[] = [];
      let cursor: string | null = null;
      do {
        const query: string = cursor === null ? 'limit=100' : `limit=100&cursor=${cursor}`;
        const page: TestResponse = await api.get(`/admin/facilities/${facility}/audit-events?${query}`, auth);
        assert.equal(page.status, 200, page.text);
        entries.push(...page.body.audit_events);
        cursor = page.body.next_cursor;
      } while (cursor !== null);
      return entries;
    }

    /** The secrets the database holds for the facility's webhook endpoints, sealed as stored. */
    async function storedSecrets(facility: number): Promise<string[]> {
      const rows = await api.app.db
        .selectFrom('webhook_endpoints')
        .select(['secret', 'previous_secret'])
        .where('facility_id', '=', facility)
        .execute();
      return rows.flatMap((row) => [row.secret, row.previous_secret]).filter((s): s is string => !!s);
    }

    test('every write operation of the document says what its entry is', () => {
      assert.deepEqual(
        WRITE_OPERATIONS.map((operation) => operation.operationId).filter((id) => !(id in WRITES)),
        [],
        'write operations without a row in WRITES (test/write-audit.test.ts)',
      );
      assert.deepEqual(
        Object.keys(WRITES).filter((id) => !WRITE_OPERATIONS.some((o) => o.operationId === id)),
        [],
        'rows of WRITES for no write operation',
      );
    });

    for (const operation of WRITE_OPERATIONS) {
      test(`${operation.operationId} (${operation.method} ${operation.path}) is in the trail, with the key, what changed and no secret`, async () => {
        const expected = WRITES[operation.operationId];
        assert.ok(expected, `${operation.operationId} has no row in WRITES`);
        const facility = api.newFacility();
        const context: ExampleContext = { api, facility, auth };
        const request = await exampleRequest(operation, context);
        const seen = new Set((await trailOf(facility)).map((entry) => entry.id));
        clock.advanceMs(60_000);
        const byPerson = expected.by === 'person';
        assert.ok(!byPerson || request.person, `the example of ${operation.operationId} signs no person in`);
        const caller = byPerson ? (request.person ?? {}) : auth;
        const response = await inject(api.app, { ...request, headers: { ...request.headers, ...caller } });
        assert.ok(response.status >= 200 && response.status < 300, `${response.status} ${response.text}`);
        if ('notAudited' in expected) return;
        if (operation.operationId === 'importMembers') {
          const job = await finishedImport(context, response);
          assert.equal(job.state, 'succeeded', JSON.stringify(job));
        }

        const trailFacility = expected.trail === 'created' ? Number(response.body.id) : facility;
        const trail = await trailOf(trailFacility);
        const written = trail.filter((entry) => !seen.has(entry.id));
        const id = expectedId(expected, operation, request.params, response);
        const ofTheWrite = written.filter(
          (entry) =>
            entry.resource_type === expected.resourceType &&
            entry.action === expected.action &&
            (id === undefined || entry.resource_id === id),
        );
        assert.ok(
          ofTheWrite.length > 0,
          `${operation.operationId}: no ${expected.resourceType} ${expected.action} entry; it wrote ${JSON.stringify(written)}`,
        );
        for (const entry of ofTheWrite) {
          if (byPerson) {
            assert.deepEqual(entry.actor.type, 'staff_user', `${operation.operationId}: the person wrote`);
            assert.equal(entry.api_key_id, null);
          } else {
            assert.deepEqual(
              [entry.api_key_id, entry.api_key_name],
              [key.id, KEY_NAME],
              `${operation.operationId}: the entry names the key that wrote`,
            );
          }
          assert.equal(entry.facility_id, trailFacility);
          if (expected.resourceId !== 'any') {
            assert.equal(entry.request_id, response.headers['x-request-id'], 'the request that wrote');
          }
          const changed = Object.entries(entry.changes).filter(
            ([, change]) => JSON.stringify(change.before) !== JSON.stringify(change.after),
          );
          assert.ok(
            changed.length > 0,
            `${operation.operationId}: what changed: ${JSON.stringify(entry.changes)}`,
          );
        }

        const text = JSON.stringify(trail);
        const secrets = [key.secret, hashSecret(key.secret), ...(await storedSecrets(facility))];
        if (typeof response.body?.secret === 'string') secrets.push(response.body.secret);
        // Passwords a body sent (a password change's), and the session a person's write set.
        const sent = request.headers['content-type'] === 'application/json' ? request.payload : undefined;
        for (const [field, value] of Object.entries(JSON.parse(sent ?? '{}'))) {
          if (field.includes('password') && typeof value === 'string') secrets.push(value);
        }
        const cookie = /fa_session=([^;]+)/.exec(String(response.headers['set-cookie'] ?? ''))?.[1];
        if (cookie) secrets.push(cookie);
        for (const secret of secrets) {
          assert.equal(text.includes(secret), false, `${operation.operationId}: a secret is in the trail`);
          // Without its prefix too (fa_…, whsec_…).
          const bare = secret.replace(/^[a-z]+_/, '');
          if (bare.length >= 16)
            assert.equal(text.includes(bare), false, `${operation.operationId}: a secret`);
        }
      });
    }
  },
  { authMode: 'api-key', rateLimitPerMinute: 0 },
  { now: clock.now },
);

/** The resource id the entry must name; undefined for any. */
function expectedId(
  expected: Exclude<Expected, { notAudited: string }>,
  operation: Operation,
  params: Record<string, string>,
  response: TestResponse,
): string | undefined {
  if (expected.resourceId === 'any') return undefined;
  if (expected.resourceId === 'created') return String(response.body?.id);
  // A decision answers the check-in it recorded.
  if (expected.resourceId === 'check_in') return String(response.body?.check_in?.id);
  if (expected.resourceId === 'facility') return params.facility_id;
  const value = params[expected.resourceId.param];
  assert.ok(value, `${operation.operationId} names no ${expected.resourceId.param}`);
  return value;
}
