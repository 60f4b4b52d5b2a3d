/**
 * Who may call what: one row per operation of the OpenAPI document (by
 * operationId), one column per role. test/access-matrix.test.ts drives
 * every cell, and fails when a secured operation has no row. A role is added
 * by adding it to ROLES, a column to every row (the type checker names each
 * row that lacks it) and the way to sign in as it to CREDENTIALS.
 */
import type { App } from '../src/app.js';
import { createApiKey } from '../src/infrastructure/api-keys/api-key.service.js';

export const ROLES = ['admin', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** true: the role may call the operation (2xx); false: 403 forbidden, and nothing is written. */
type Row = Record<Role, boolean>;

/** How a caller of each role, for the given facilities, authenticates. */
export const CREDENTIALS: Record<Role, (app: App, facilityIds: number[]) => Promise<Record<string, string>>> =
  {
    admin: async (app, facilityIds) => bearer(await keySecret(app, 'admin', facilityIds)),
    viewer: async (app, facilityIds) => bearer(await keySecret(app, 'viewer', facilityIds)),
  };

const read: Row = { admin: true, viewer: true };
const write: Row = { admin: true, viewer: false };
/** Webhooks hold secrets and reach other systems: admin keys only, reads too. */
const adminOnly: Row = { admin: true, viewer: false };

export const ACCESS: Record<string, Row> = {
  //                        admin  viewer
  getSession: read,
  listPlanTemplates: read,

  createPlan: write,
  listPlans: read,
  getPlan: read,
  updatePlan: write,
  deletePlan: write,

  getEntitlements: read,
  replaceEntitlements: write,
  setEntitlement: write,
  deleteEntitlement: write,

  createMember: write,
  listMembers: read,
  getMember: read,
  updateMember: write,
  deleteMember: write,

  createFreeze: write,
  listFreezes: read,
  cancelFreeze: write,

  importMembers: write,
  getMemberImport: read,
  listMemberImports: read,
  exportMembers: read,

  getPolicy: read,
  updatePolicy: write,
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

async function keySecret(app: App, role: 'admin' | 'viewer', facilityIds: number[]): Promise<string> {
  const { secret } = await createApiKey(app.db, {
    name: `${role} of ${facilityIds.join(',')}`,
    role,
    facilityIds,
  });
  return secret;
}
