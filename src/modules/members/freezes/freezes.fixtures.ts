import assert from 'node:assert/strict';
import type { Api } from '../../../../test/harness.js';

/** Requests of a facility's members and their freezes, through the test app. */
export function freezeRequests(api: Api) {
  const membersUrl = (facility: number) => `/admin/facilities/${facility}/members`;
  return {
    membersUrl,
    setPolicy: async (facility: number, body: object) =>
      assert.equal((await api.patch(`/admin/facilities/${facility}/policy`, body)).status, 200),
    /** A new member (Ann, unless the body says otherwise), its URL and its freezes' URL. */
    async newMember(facility: number, body: object = {}) {
      const created = await api.post(membersUrl(facility), { first_name: 'Ann', ...body });
      assert.equal(created.status, 201, created.text);
      const url = `${membersUrl(facility)}/${created.body.id}`;
      return { id: created.body.id as number, url, freezes: `${url}/freezes` };
    },
    /** Plans a freeze at a member's freezes URL; 201 expected. */
    async freeze(url: string, body: object) {
      const response = await api.post(url, body);
      assert.equal(response.status, 201, response.text);
      return response.body;
    },
  };
}
