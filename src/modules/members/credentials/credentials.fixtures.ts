/** Helpers of the credentials tests: a member to give credentials, and giving one. */
import assert from 'node:assert/strict';
import type { Api } from '../../../../test/harness.js';

export function credentialRequests(api: Api) {
  const newMember = async (facility: number) => {
    const response = await api.post(`/admin/facilities/${facility}/members`, { first_name: 'Ada' });
    assert.equal(response.status, 201, response.text);
    const url = `/admin/facilities/${facility}/members/${response.body.id}`;
    return { id: response.body.id as number, url, credentials: `${url}/credentials` };
  };
  const give = async (credentials: string, body: Record<string, unknown>) => {
    const response = await api.post(credentials, body);
    assert.equal(response.status, 201, response.text);
    return response.body;
  };
  return { newMember, give };
}
