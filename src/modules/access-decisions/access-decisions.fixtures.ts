import assert from 'node:assert/strict';
import type { Api } from '../../../test/harness.js';
import { hashCredentialValue, lastFourOf } from '../members/credentials/credential-value.js';

/** Requests of the door, through the test app: a facility with a plan, members, credentials, decisions. */
export function doorRequests(api: Api) {
  const facilityUrl = (facility: number) => `/admin/facilities/${facility}`;
  const decide = (facility: number, body: object, headers?: Record<string, string>) =>
    api.post(`${facilityUrl(facility)}/access-decisions`, body, headers);
  return {
    facilityUrl,
    decide,
    /** A decision answered 200, returned as its body. */
    async decided(facility: number, body: object) {
      const response = await decide(facility, body);
      assert.equal(response.status, 200, response.text);
      return response.body;
    },
    setPolicy: async (facility: number, body: object) => {
      const response = await api.patch(`${facilityUrl(facility)}/policy`, body);
      assert.equal(response.status, 200, response.text);
    },
    /** A plan with these entitlements. */
    async newPlan(facility: number, entitlements: Record<string, unknown> = {}, body: object = {}) {
      const plan = await api.post(`${facilityUrl(facility)}/plans`, { name: 'Gold', ...body });
      assert.equal(plan.status, 201, plan.text);
      const set = await api.put(`${facilityUrl(facility)}/plans/${plan.body.id}/entitlements`, {
        entitlements,
      });
      assert.ok(set.status === 200 || set.status === 201, set.text);
      return plan.body as { id: number; name: string };
    },
    /** A member (Ann, active, today) of the plan. */
    async newMember(facility: number, planId: number | null, body: object = {}) {
      const created = await api.post(`${facilityUrl(facility)}/members`, {
        first_name: 'Ann',
        plan_id: planId,
        ...body,
      });
      assert.equal(created.status, 201, created.text);
      return created.body as { id: number; first_name: string };
    },
    /**
     * A credential of the member, stored as the credentials API stores one
     * (hashed); `revoked` ones are kept for the log.
     */
    async giveCredential(facility: number, memberId: number, value: string, revoked = false) {
      const now = new Date().toISOString();
      await api.app.db
        .insertInto('member_credentials')
        .values({
          facility_id: facility,
          member_id: memberId,
          type: 'card',
          value_hash: hashCredentialValue(value),
          value_last4: lastFourOf(value),
          label: null,
          created_at: now,
          revoked_at: revoked ? now : null,
        })
        .execute();
    },
    codesOf: (decision: { reasons: { code: string }[] }) => decision.reasons.map((r) => r.code),
  };
}
