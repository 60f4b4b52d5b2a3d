/** Who may ask at the door: a door's key decides and checks out but reads nothing; the front desk decides. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertProblem, describeEachDialect } from '../../../test/harness.js';
import { createApiKey } from '../../infrastructure/api-keys/api-key.service.js';

const ADMIN_API_KEY = 'access-decisions-admin-key-0123456789';
const admin = { authorization: `Bearer ${ADMIN_API_KEY}` };

describeEachDialect(
  'access decisions: keys',
  (api) => {
    async function setUp() {
      const facility = api.newFacility();
      const url = `/admin/facilities/${facility}`;
      const plan = await api.post(`${url}/plans`, { name: 'Gold' }, admin);
      const member = await api.post(`${url}/members`, { first_name: 'Ann', plan_id: plan.body.id }, admin);
      assert.equal(member.status, 201, member.text);
      const keyOf = async (role: 'door' | 'front_desk') => {
        const { secret } = await createApiKey(api.app.db, {
          name: `${role} key`,
          role,
          facilityIds: [facility],
        });
        return { authorization: `Bearer ${secret}` };
      };
      return { url, memberId: member.body.id as number, keyOf };
    }

    test("a door's key decides and checks out, and is 403 on GET members", async () => {
      const { url, memberId, keyOf } = await setUp();
      const doorKey = await keyOf('door');
      const decided = await api.post(`${url}/access-decisions`, { member_id: memberId }, doorKey);
      assert.equal(decided.status, 200, decided.text);
      assert.deepEqual(decided.body.check_in.actor, {
        type: 'api_key',
        id: decided.body.check_in.actor.id,
        name: 'door key',
      });
      const out = await api.post(
        `${url}/check-ins/${decided.body.check_in.id}/check-out`,
        undefined,
        doorKey,
      );
      assert.equal(out.status, 200, out.text);
      assertProblem(await api.get(`${url}/members`, doorKey), 403, 'forbidden');
      assertProblem(await api.get(`${url}/check-ins`, doorKey), 403, 'forbidden');
    });

    test('the front desk may decide', async () => {
      const { url, memberId, keyOf } = await setUp();
      const decided = await api.post(
        `${url}/access-decisions`,
        { member_id: memberId },
        await keyOf('front_desk'),
      );
      assert.deepEqual([decided.status, decided.body.decision], [200, 'allow']);
    });
  },
  { authMode: 'api-key', adminApiKey: ADMIN_API_KEY, authFailureLimit: 0 },
);
