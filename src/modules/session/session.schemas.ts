import { type Static, Type } from 'typebox';
import type { Principal } from '../../core/principal.js';
import { ROLE_PERMISSIONS } from '../../core/roles.js';
import { Actor, NullableRef } from '../../http/vocabulary/people-schemas.js';
import { Id, Nullable, Ref, StringEnum } from '../../http/vocabulary/schemas.js';

const keyExample = {
  auth_mode: 'api-key',
  actor: { type: 'api_key', id: 3, name: 'front desk' },
  key_name: 'front desk',
  role: 'viewer',
  facility_ids: [1, 4],
  roles: [
    { facility_id: 1, role: 'viewer', permissions: ['read'] },
    { facility_id: 4, role: 'viewer', permissions: ['read'] },
  ],
};

export const Session = Type.Object(
  {
    auth_mode: StringEnum(['api-key', 'none'], {
      description: '`none` when the service runs with authentication off (AUTH_MODE=none)',
    }),
    actor: Ref(Actor),
    key_name: Type.String({
      description:
        "The caller's name, as `actor.name` (the API key's; the person's when signed in; `AUTH_MODE=none` when " +
        'authentication is off)',
    }),
    role: NullableRef<string>('Role', {
      description: "The API key's role; null for a person signed in to the console (see `roles`)",
    }),
    facility_ids: Nullable(Type.Array(Id), {
      description: 'The facilities the caller may reach, ascending; null for every facility',
    }),
    roles: Type.Array(
      Type.Object(
        {
          facility_id: Nullable(Id, { description: 'null: every facility' }),
          role: Type.Unsafe<string>({ $ref: 'Role' }),
          permissions: Type.Array(Type.Unsafe<string>({ $ref: 'Permission' }), {
            description: 'What the role lets the caller do there',
          }),
        },
        { additionalProperties: false },
      ),
      { description: "The caller's roles: one per facility, or one for every facility" },
    ),
  },
  {
    $id: 'Session',
    additionalProperties: false,
    description: 'Who the caller is and what they may do',
    examples: [keyExample],
  },
);
export type Session = Static<typeof Session>;

export function sessionOf(principal: Principal, authMode: 'api-key' | 'none'): Session {
  const keyRole = principal.staffUserId === null ? (principal.grants[0]?.role ?? null) : null;
  return {
    auth_mode: authMode,
    actor: principal.actor,
    key_name: principal.actor.name,
    role: keyRole,
    facility_ids: principal.facilityIds === 'all' ? null : [...principal.facilityIds].sort((a, b) => a - b),
    roles: principal.grants
      .map((grant) => ({
        facility_id: grant.facilityId,
        role: grant.role,
        permissions: [...ROLE_PERMISSIONS[grant.role]],
      }))
      .sort((a, b) => (a.facility_id ?? 0) - (b.facility_id ?? 0)),
  };
}
