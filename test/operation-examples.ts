/**
 * One valid request for every operation of the OpenAPI document, keyed by
 * operationId: the one table the derived suites (access matrix, HTTP rules,
 * fuzz) need for what they cannot read from the document, namely the ids an
 * operation's path names (made here, through the API) and a body where the
 * document's example does not fit (ids it names, unique values, dates
 * relative to the app's clock). A body left out is the document's example.
 * A suite fails, naming the operation, when the document has an operation
 * this table lacks: add its entry here.
 */
import assert from 'node:assert/strict';
import type { Operation } from './api-document.js';
import { eventually } from './eventually.js';
import type { Api } from './harness.js';

export interface ExampleContext {
  api: Api;
  /** The facility the request is for (each example makes what it needs in it). */
  facility: number;
  /** Headers that let the requests that make things through: an admin key where keys are on. */
  auth: Record<string, string>;
}

export interface ExampleRequest {
  /** Path parameters besides facility_id (the context's facility). */
  params?: Record<string, string | number>;
  query?: Record<string, string>;
  /** The body; the document's example when left out. */
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * For an operation on one's own account that a key cannot do (test/access-table.ts, PERSON_ONLY):
   * the headers of the person the example signed in, as the console sends them.
   */
  person?: Record<string, string>;
}

type Example = (context: ExampleContext, documented: unknown) => Promise<ExampleRequest>;

let unique = 0;
/** A value no other example of this process has used. */
const next = () => ++unique;

const base = (context: ExampleContext) => `/admin/facilities/${context.facility}`;

async function made(context: ExampleContext, method: string, url: string, body?: unknown) {
  const response = await context.api.request(method, url, body, context.auth);
  assert.ok(response.status >= 200 && response.status < 300, `${method} ${url}: ${response.text}`);
  return response.body;
}

/** A CSV file of one member that no other example has imported. */
function importFile(): string {
  const n = next();
  return `external_id;first_name;email\r\nIMP-${n};Ada;import.${n}@example.com\r\n`;
}

/**
 * The job an accepted import answered with (202, its Location), followed
 * until it has finished and, its last step, given up its uploaded chunks and
 * its record of rows written: then it writes nothing more.
 */
export async function finishedImport(
  context: ExampleContext,
  accepted: { headers: Record<string, unknown> },
): Promise<{ id: number; state: string }> {
  const location = String(accepted.headers.location);
  const job = await eventually(`the import ${location} to finish`, async () => {
    const seen = (await context.api.get(location, context.auth)).body;
    return seen?.state === 'succeeded' || seen?.state === 'failed' ? seen : undefined;
  });
  const { db } = context.api.app;
  await eventually(`the import ${location} to remove its chunks`, async () => {
    const left = await Promise.all([
      db.selectFrom('member_import_chunks').select('seq').where('import_id', '=', job.id).execute(),
      db.selectFrom('member_import_writes').select('row').where('import_id', '=', job.id).execute(),
    ]);
    return left.every((rows) => rows.length === 0);
  });
  return job;
}

/** Today in the app's clock, in UTC (the zone of a facility whose policy was never changed). */
function today(context: ExampleContext, plusDays = 0): string {
  return new Date(context.api.app.now().getTime() + plusDays * 86_400_000).toISOString().slice(0, 10);
}

export const make = {
  plan: async (context: ExampleContext): Promise<number> =>
    (await made(context, 'POST', `${base(context)}/plans`, { name: `Example plan ${next()}` })).id,
  /** A plan with the entitlement `guest_passes`. */
  planWithEntitlement: async (context: ExampleContext): Promise<number> => {
    const plan = await make.plan(context);
    await made(context, 'PUT', `${base(context)}/plans/${plan}/entitlements/guest_passes`, { value: 2 });
    return plan;
  },
  member: async (context: ExampleContext): Promise<number> =>
    (await made(context, 'POST', `${base(context)}/members`, { first_name: 'Example' })).id,
  /** A member and a freeze planned from next week. */
  freeze: async (context: ExampleContext): Promise<{ member: number; freeze: number }> => {
    const member = await make.member(context);
    const url = `${base(context)}/members/${member}/freezes`;
    const freeze = await made(context, 'POST', url, {
      starts_on: today(context, 7),
      ends_on: today(context, 14),
    });
    return { member, freeze: freeze.id };
  },
  /** An allowed check-in of a new member: decided at the door and recorded. */
  checkIn: async (context: ExampleContext): Promise<number> => {
    const plan = await make.plan(context);
    const member = (
      await made(context, 'POST', `${base(context)}/members`, { first_name: 'Door', plan_id: plan })
    ).id;
    const decided = await made(context, 'POST', `${base(context)}/access-decisions`, { member_id: member });
    assert.equal(decided.decision, 'allow', JSON.stringify(decided));
    return decided.check_in.id;
  },
  endpoint: async (context: ExampleContext, fields: { enabled?: boolean } = {}): Promise<number> =>
    (
      await made(context, 'POST', `${base(context)}/webhook-endpoints`, {
        url: `https://hooks.example.com/${next()}`,
        ...fields,
      })
    ).id,
  /**
   * A finished import of one member: finished, so that its job writes nothing
   * more to the facility while a suite compares what the facility holds.
   */
  memberImport: async (context: ExampleContext): Promise<number> => {
    const url = `${base(context)}/members/import`;
    const response = await context.api.request('POST', url, importFile(), {
      ...context.auth,
      'content-type': 'text/csv',
    });
    assert.equal(response.status, 202, `POST ${url}: ${response.text}`);
    const job = await finishedImport(context, response);
    assert.equal(job.state, 'succeeded', JSON.stringify(job));
    return job.id;
  },
  /** An endpoint and a test ping queued to it (a delivery, pending: no worker runs in a test's app). */
  delivery: async (context: ExampleContext): Promise<{ endpoint: number; delivery: number }> => {
    const endpoint = await make.endpoint(context);
    const ping = await made(context, 'POST', `${base(context)}/webhook-endpoints/${endpoint}/test`);
    return { endpoint, delivery: ping.id };
  },
};

const PERSON_PASSWORD = 'a long and unusual passphrase';
const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin' };
const tokenOf = (url: string) => String(new URL(url.replace('#/link', 'link')).searchParams.get('token'));

const people = {
  /** A person invited with a viewer role in the facility (no SMTP: the answer holds the link). */
  person: async (context: ExampleContext) =>
    made(context, 'POST', '/admin/staff', {
      email: `person.${next()}@example.com`,
      name: 'Example Person',
      roles: [{ facility_id: context.facility, role: 'viewer' }],
    }),
  /** A person who has set their password, with the headers of the session that signed them in. */
  signedUpPerson: async (context: ExampleContext) => {
    const invited = await people.person(context);
    const used = await context.api.post(
      '/admin/session/link',
      { token: tokenOf(invited.invitation.url), password: PERSON_PASSWORD },
      SAME_ORIGIN,
    );
    assert.equal(used.status, 200, used.text);
    const cookie = /^((?:__Host-)?fa_session=[^;]+);/.exec(String(used.headers['set-cookie']))?.[1];
    assert.ok(cookie, String(used.headers['set-cookie']));
    return { ...invited, session: { cookie, ...SAME_ORIGIN } as Record<string, string> };
  },
};

export const EXAMPLES: Record<string, Example> = {
  getHealth: async () => ({}),
  getReadiness: async () => ({}),
  getSession: async () => ({}),
  signOut: async () => ({}),
  signOutEverywhere: async () => ({}),
  getSignInOptions: async () => ({}),
  changePassword: async (context) => ({
    body: { current_password: PERSON_PASSWORD, new_password: 'another unusual passphrase' },
    person: (await people.signedUpPerson(context)).session,
  }),
  listMySessions: async () => ({}),
  endMySession: async (context) => {
    const person = await people.signedUpPerson(context);
    const session = await context.api.app.db
      .selectFrom('staff_sessions')
      .select('id')
      .where('staff_user_id', '=', person.id)
      .executeTakeFirstOrThrow();
    return { params: { session_id: session.id }, person: person.session };
  },
  // Open: 202 whatever the e-mail (nothing is sent without SMTP_URL).
  requestPasswordReset: async () => ({ body: { email: `forgot.${next()}@example.com` } }),
  // Open operations: a person made through the API signs in (the console's own page sends Sec-Fetch-Site).
  signIn: async (context) => {
    const { email } = await people.signedUpPerson(context);
    return { body: { email, password: PERSON_PASSWORD }, headers: SAME_ORIGIN };
  },
  signInWithLink: async (context) => {
    const invited = await people.person(context);
    return {
      body: { token: tokenOf(invited.invitation.url), password: PERSON_PASSWORD },
      headers: SAME_ORIGIN,
    };
  },
  listPlanTemplates: async () => ({}),

  listFacilities: async () => ({}),
  createFacility: async (_context, documented) => ({
    body: { ...(documented as object), name: `Riverside ${next()}` },
  }),
  getFacility: async () => ({}),
  updateFacility: async () => ({}),

  listStaff: async () => ({}),
  inviteStaff: async (context) => ({
    body: {
      email: `staff.${next()}@example.com`,
      name: 'Dana Reyes',
      roles: [{ facility_id: context.facility, role: 'viewer' }],
    },
  }),
  getStaff: async (context) => ({ params: { staff_user_id: (await people.person(context)).id } }),
  updateStaff: async (context) => ({
    params: { staff_user_id: (await people.person(context)).id },
    body: { roles: [{ facility_id: context.facility, role: 'front_desk' }] },
  }),
  resendStaffInvitation: async (context) => ({
    params: { staff_user_id: (await people.person(context)).id },
  }),
  sendStaffPasswordReset: async (context) => ({
    params: { staff_user_id: (await people.person(context)).id },
  }),

  listApiKeys: async () => ({}),
  createApiKey: async (context) => ({
    body: { name: `key ${next()}`, role: 'viewer', facility_ids: [context.facility] },
  }),
  revokeApiKey: async (context) => ({
    params: {
      api_key_id: (
        await made(context, 'POST', '/admin/api-keys', {
          name: `key ${next()}`,
          role: 'viewer',
          facility_ids: [context.facility],
        })
      ).id,
    },
  }),

  createPlan: async (_context, documented) => ({
    body: { ...(documented as object), name: `Adult monthly ${next()}` },
  }),
  listPlans: async () => ({}),
  getPlan: async (context) => ({ params: { plan_id: await make.plan(context) } }),
  updatePlan: async (context) => ({ params: { plan_id: await make.plan(context) } }),
  deletePlan: async (context) => ({ params: { plan_id: await make.plan(context) } }),

  getEntitlements: async (context) => ({ params: { plan_id: await make.planWithEntitlement(context) } }),
  replaceEntitlements: async (context) => ({ params: { plan_id: await make.plan(context) } }),
  setEntitlement: async (context) => ({ params: { plan_id: await make.plan(context), key: 'sauna' } }),
  deleteEntitlement: async (context) => ({
    params: { plan_id: await make.planWithEntitlement(context), key: 'guest_passes' },
  }),

  createMember: async (context, documented) => {
    const n = next();
    return {
      body: {
        ...(documented as object),
        plan_id: await make.plan(context),
        email: `ada.${n}@example.com`,
        external_id: `CRM-${n}`,
      },
    };
  },
  listMembers: async () => ({}),
  getMember: async (context) => ({ params: { member_id: await make.member(context) } }),
  updateMember: async (context) => ({ params: { member_id: await make.member(context) } }),
  deleteMember: async (context) => ({ params: { member_id: await make.member(context) } }),

  createFreeze: async (context) => ({
    params: { member_id: await make.member(context) },
    body: { starts_on: today(context, 7), ends_on: today(context, 21), reason: 'Knee surgery' },
  }),
  listFreezes: async (context) => ({ params: { member_id: (await make.freeze(context)).member } }),
  cancelFreeze: async (context) => {
    const { member, freeze } = await make.freeze(context);
    return { params: { member_id: member, freeze_id: freeze } };
  },

  decideAccess: async (context) => ({ body: { member_id: await make.member(context) } }),
  listCheckIns: async (context) => {
    await make.checkIn(context);
    return {};
  },
  checkOut: async (context) => ({ params: { check_in_id: await make.checkIn(context) } }),
  getOccupancy: async () => ({}),

  // A job (202): a suite that compares the facility after it follows the job to its end (finishedImport).
  importMembers: async () => ({ body: importFile() }),
  getMemberImport: async (context) => ({ params: { import_id: await make.memberImport(context) } }),
  listMemberImports: async (context) => {
    await make.memberImport(context);
    return {};
  },
  exportMembers: async () => ({}),

  getPolicy: async () => ({}),
  updatePolicy: async () => ({}),
  listAuditEvents: async () => ({}),
  listEvents: async () => ({}),

  createWebhookEndpoint: async () => ({}),
  listWebhookEndpoints: async () => ({}),
  getWebhookEndpoint: async (context) => ({ params: { endpoint_id: await make.endpoint(context) } }),
  // The document's example turns an endpoint on: one that is off.
  updateWebhookEndpoint: async (context) => ({
    params: { endpoint_id: await make.endpoint(context, { enabled: false }) },
  }),
  deleteWebhookEndpoint: async (context) => ({ params: { endpoint_id: await make.endpoint(context) } }),
  rotateWebhookSecret: async (context) => ({ params: { endpoint_id: await make.endpoint(context) } }),
  testWebhookEndpoint: async (context) => ({ params: { endpoint_id: await make.endpoint(context) } }),
  listWebhookDeliveries: async (context) => ({
    params: { endpoint_id: (await make.delivery(context)).endpoint },
  }),
  retryWebhookDelivery: async (context) => {
    const { endpoint, delivery } = await make.delivery(context);
    return { params: { endpoint_id: endpoint, delivery_id: delivery } };
  },
};

export interface PreparedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** The path parameters the url was filled with. */
  params: Record<string, string>;
  /** The person's headers, for an operation on one's own account (ExampleRequest.person). */
  person?: Record<string, string>;
}

/**
 * The example's request for an operation, ready to send; fails naming the
 * operation when it has no entry. `params` replaces path parameters of the
 * example (an id that does not exist, say).
 */
export async function exampleRequest(
  operation: Operation,
  context: ExampleContext,
  params: Record<string, string> = {},
): Promise<PreparedRequest> {
  const example = EXAMPLES[operation.operationId];
  assert.ok(
    example,
    `no example request for ${operation.operationId} (${operation.method} ${operation.path}): add one to test/operation-examples.ts`,
  );
  const request = await example(context, operation.bodyExample);
  const values: Record<string, string> = { facility_id: String(context.facility) };
  for (const [name, value] of Object.entries({ ...request.params, ...params })) values[name] = String(value);
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    assert.ok(name in values, `the example of ${operation.operationId} gives no ${name}`);
    return encodeURIComponent(values[name]);
  });
  const query = new URLSearchParams(request.query ?? {}).toString();
  const url = query ? `${path}?${query}` : path;
  const headers = { ...request.headers };
  const person = request.person;
  if (operation.bodyTypes.length === 0)
    return { method: operation.method, url, headers, params: values, person };
  const body = request.body ?? operation.bodyExample;
  const contentType = operation.bodyTypes[0];
  return {
    method: operation.method,
    url,
    headers: { 'content-type': contentType, ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body ?? {}),
    params: values,
    person,
  };
}

/** The operations of the document that have no entry in the table, and the entries no operation has. */
export function exampleTableGaps(operations: readonly Operation[]): { missing: string[]; stale: string[] } {
  const ids = new Set(operations.map((operation) => operation.operationId));
  return {
    missing: [...ids].filter((id) => !(id in EXAMPLES)),
    stale: Object.keys(EXAMPLES).filter((id) => !ids.has(id)),
  };
}
