import { Type } from 'typebox';
import { KEY_ROLES, PERMISSIONS } from '../../core/roles.js';
import { Id, Nullable, StringEnum } from './schemas.js';

/** A named schema, or null. */
export function NullableRef<T>(id: string, options: Record<string, unknown> = {}) {
  return Type.Unsafe<T | null>({ anyOf: [{ $ref: id }, { type: 'null' }], ...options });
}

/** Who did a write or is calling: the vocabulary of people, shared by the audit trail, the feed and the session. */
export const Actor = Type.Object(
  {
    type: StringEnum(['api_key', 'staff_user', 'service'], {
      description: '`service`: the service by itself (the schedule, the first start, the command line)',
    }),
    id: Nullable(Type.Integer({ minimum: 0 }), {
      description: "The key's id (0: ADMIN_API_KEY) or the staff user's; null for the service",
    }),
    name: Type.String({ description: "The key's name, the person's name, or what the service was doing" }),
  },
  {
    $id: 'Actor',
    additionalProperties: false,
    description: 'Who did it',
    examples: [{ type: 'staff_user', id: 4, name: 'Dana Reyes' }],
  },
);

export const Role = StringEnum(KEY_ROLES, {
  $id: 'Role',
  description:
    '`owner`: everything; `manager`: plans, members, freezes, policy, imports, not staff, keys or webhooks; ' +
    '`front_desk`: reads, creates and edits members, plans and cancels freezes, gives and revokes credentials, ' +
    'the door; `viewer`: reads only; ' +
    '`admin` (API keys): as `owner`; `door` (API keys): asks for access decisions and records check-outs, ' +
    'nothing else (not even reads)',
  examples: ['front_desk'],
});

export const Permission = StringEnum(PERMISSIONS, {
  $id: 'Permission',
  description: 'What a role lets its holder do (docs/security.md, "Roles")',
  examples: ['members.write'],
});

export const RoleGrant = Type.Object(
  {
    facility_id: Nullable(Id, { description: 'null: every facility' }),
    role: Type.Unsafe<string>({ $ref: 'Role' }),
  },
  { $id: 'RoleGrant', additionalProperties: false, examples: [{ facility_id: 1, role: 'manager' }] },
);
