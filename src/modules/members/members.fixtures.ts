import assert from 'node:assert/strict';
import type { Api } from '../../../test/harness.js';

/** A YYYY-MM-DD date moved by whole years (29 February becomes the 28th) and then by days. */
export function shiftDate(date: string, years: number, days = 0): string {
  const [y, m, d] = date.split('-').map(Number);
  const shifted = new Date(Date.UTC(y + years, m - 1, d));
  if (shifted.getUTCMonth() !== m - 1) shifted.setUTCDate(0);
  shifted.setUTCDate(shifted.getUTCDate() + days);
  return shifted.toISOString().slice(0, 10);
}

/** `{field: null}` for each of the space-separated fields. */
export const nulls = (fields: string) => Object.fromEntries(fields.split(' ').map((field) => [field, null]));

/** The fields of a member's representation, sorted. */
export const MEMBER_FIELDS = [
  ...'allowed_transitions created_at date_of_birth deleted_at email ends_on external_id facility_id first_name id'.split(
    ' ',
  ),
  ...'joined_on last_check_in_at last_name notes phone plan_id role sport_id status status_changed_at'.split(
    ' ',
  ),
  ...'status_reason updated_at waiver_signed_at'.split(' '),
];

/** Requests of a facility's members and policy, through the test app. */
export function memberRequests(api: Api) {
  const membersUrl = (facility: number | string) => `/admin/facilities/${facility}/members`;
  const memberUrl = (facility: number, id: number | string) => `${membersUrl(facility)}/${id}`;
  const post = (facility: number, body: object) => api.post(membersUrl(facility), body);
  return {
    membersUrl,
    memberUrl,
    post,
    patch: (facility: number, id: number | string, body: object) => api.patch(memberUrl(facility, id), body),
    read: async (facility: number, id: number) => (await api.get(memberUrl(facility, id))).body,
    async createMember(facility: number, body: object = { first_name: 'Ann' }) {
      const response = await post(facility, body);
      assert.equal(response.status, 201, response.text);
      return response.body;
    },
    setPolicy: async (facility: number, body: object) =>
      assert.equal((await api.patch(`/admin/facilities/${facility}/policy`, body)).status, 200),
  };
}
