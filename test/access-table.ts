/**
 * Who may call what: one row per operation of the OpenAPI document (by
 * operationId), one column per role. test/access-matrix.test.ts drives
 * every cell, and fails when a secured operation has no row. A role is added
 * by adding it to ROLES, a column to every row (the type checker names each
 * row that lacks it) and the way to sign in as it to CREDENTIALS.
 */
import type { App } from '../src/app.js';
import { createApiKey } from '../src/infrastructure/api-keys/api-key.service.js';

export const ROLES = ['admin', 'owner', 'manager', 'front_desk', 'viewer', 'door'] as const;
export type Role = (typeof ROLES)[number];

/** true: the role may call the operation (2xx); false: 403 forbidden, and nothing is written. */
type Row = Record<Role, boolean>;

/** How a caller of each role, for the given facilities, authenticates. */
export const CREDENTIALS: Record<Role, (app: App, facilityIds: number[]) => Promise<Record<string, string>>> =
  {
    admin: async (app, facilityIds) => bearer(await keySecret(app, 'admin', facilityIds)),
    owner: async (app, facilityIds) => bearer(await keySecret(app, 'owner', facilityIds)),
    manager: async (app, facilityIds) => bearer(await keySecret(app, 'manager', facilityIds)),
    front_desk: async (app, facilityIds) => bearer(await keySecret(app, 'front_desk', facilityIds)),
    viewer: async (app, facilityIds) => bearer(await keySecret(app, 'viewer', facilityIds)),
    door: async (app, facilityIds) => bearer(await keySecret(app, 'door', facilityIds)),
  };

//                                admin  owner  manager  front_desk  viewer
const read: Row = /*          */ {
  admin: true,
  owner: true,
  manager: true,
  front_desk: true,
  viewer: true,
  door: false,
};
/** One's own session and account: any caller, a door's key too (it has no other read). */
const account: Row = /*       */ { ...read, door: true };
/** Members day to day: the front desk too. */
const desk: Row = /*          */ {
  admin: true,
  owner: true,
  manager: true,
  front_desk: true,
  viewer: false,
  door: false,
};
/** The door: decisions and check-outs, which door controllers (role `door`) and the front desk make. */
const door: Row = /*          */ { ...desk, door: true };
/** Plans, policy, imports, deletes: managers and up. */
const write: Row = /*         */ {
  admin: true,
  owner: true,
  manager: true,
  front_desk: false,
  viewer: false,
  door: false,
};
/** Webhooks hold secrets and reach other systems; people, keys and facilities: owners only, reads too. */
const adminOnly: Row = /*     */ {
  admin: true,
  owner: true,
  manager: false,
  front_desk: false,
  viewer: false,
  door: false,
};
/** No key of one facility, whatever its role: a new facility is outside its scope. */
const everyFacility: Row = /* */ {
  admin: false,
  owner: false,
  manager: false,
  front_desk: false,
  viewer: false,
  door: false,
};

/**
 * Operations whose path names no facility but whose target is a facility's
 * (a new facility; a person or key of one): a key of any other one facility
 * may not call them, an admin key for every facility may.
 */
export const NEEDS_EVERY_FACILITY = new Set([
  'createFacility',
  'inviteStaff',
  'getStaff',
  'updateStaff',
  'resendStaffInvitation',
  'sendStaffPasswordReset',
  'createApiKey',
  'revokeApiKey',
]);

/**
 * Operations on one's own account that only a person signed in can do: every
 * role has them (`account`), a key gets this problem instead, and the
 * example's person (ExampleRequest.person) succeeds.
 */
export const PERSON_ONLY: Record<string, { status: number; code: string }> = {
  changePassword: { status: 403, code: 'person_only' },
  // A key has no sessions: whichever id, none of its own.
  endMySession: { status: 404, code: 'session_not_found' },
};

export const ACCESS: Record<string, Row> = {
  //                        admin  viewer
  getSession: account,
  signOut: account,
  signOutEverywhere: account,
  changePassword: account,
  listMySessions: account,
  endMySession: account,
  listPlanTemplates: read,

  listFacilities: read,
  createFacility: everyFacility,
  getFacility: read,
  updateFacility: adminOnly,

  listStaff: adminOnly,
  inviteStaff: adminOnly,
  getStaff: adminOnly,
  updateStaff: adminOnly,
  resendStaffInvitation: adminOnly,
  sendStaffPasswordReset: adminOnly,

  listApiKeys: adminOnly,
  createApiKey: adminOnly,
  revokeApiKey: adminOnly,

  createPlan: write,
  listPlans: read,
  getPlan: read,
  updatePlan: write,
  deletePlan: write,

  getEntitlements: read,
  replaceEntitlements: write,
  setEntitlement: write,
  deleteEntitlement: write,

  createMember: desk,
  listMembers: read,
  getMember: read,
  updateMember: desk,
  deleteMember: write,

  createFreeze: desk,
  listFreezes: read,
  cancelFreeze: desk,

  importMembers: write,
  getMemberImport: read,
  listMemberImports: read,
  exportMembers: read,

  getPolicy: read,
  updatePolicy: write,
  decideAccess: door,
  listCheckIns: read,
  checkOut: door,
  getOccupancy: read,

  listAuditEvents: read,
  listEvents: read,

  createWebhookEndpoint: adminOnly,
  listWebhookEndpoints: adminOnly,
  getWebhookEndpoint: adminOnly,
  updateWebhookEndpoint: adminOnly,
  deleteWebhookEndpoint: adminOnly,
  rotateWebhookSecret: adminOnly,
  testWebhookEndpoint: adminOnly,
  listWebhookDeliveries: adminOnly,
  retryWebhookDelivery: adminOnly,
};

export const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

async function keySecret(app: App, role: Role, facilityIds: number[]): Promise<string> {
  const { secret } = await createApiKey(app.db, {
    name: `${role} of ${facilityIds.join(',')}`,
    role,
    facilityIds,
  });
  return secret;
}
