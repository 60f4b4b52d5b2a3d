import { type Static, Type } from 'typebox';
import { representationOf } from '../../core/representation.js';
import { Role, RoleGrant } from '../../http/vocabulary/people-schemas.js';
import {
  Id,
  ListResponse,
  Nullable,
  PagingQuery,
  Ref,
  StringEnum,
  Timestamp,
} from '../../http/vocabulary/schemas.js';

export const STAFF_STATES = ['invited', 'active', 'disabled'] as const;

const staffExample = {
  id: 4,
  email: 'dana.reyes@riverside.example',
  name: 'Dana Reyes',
  state: 'active',
  roles: [{ facility_id: 1, role: 'manager' }],
  has_password: true,
  last_sign_in_at: '2026-03-09T08:02:11.510Z',
  created_at: '2026-03-02T09:15:04.118Z',
  updated_at: '2026-03-03T10:00:00.000Z',
};

const StaffEmail = Type.String({
  format: 'email',
  maxLength: 254,
  description: 'Unique among staff users, ignoring case',
});
const StaffName = Type.String({
  minLength: 1,
  maxLength: 120,
  description: '1 to 120 characters after trimming',
});
const Roles = Type.Array(Ref(RoleGrant), {
  maxItems: 1000,
  description:
    'One role per facility (`facility_id` null: every facility); an empty list leaves the person no access',
});

export const StaffLink = Type.Object(
  {
    url: Nullable(Type.String(), {
      description: 'The one-time link to pass on to the person; null when it was e-mailed to them',
    }),
    expires_at: Timestamp,
    emailed: Type.Boolean({
      description: 'true: sent to the person by e-mail (SMTP_URL set); the link is then not shown',
    }),
  },
  {
    $id: 'StaffLink',
    additionalProperties: false,
    description: 'A one-time link: an invitation or a password reset',
    examples: [{ url: null, expires_at: '2026-03-16T09:15:04.118Z', emailed: true }],
  },
);
export type StaffLink = Static<typeof StaffLink>;

export const StaffUser = Type.Object(
  {
    id: Id,
    email: StaffEmail,
    name: StaffName,
    state: StringEnum(STAFF_STATES, {
      description: '`invited` until the person first signs in; `disabled`: may not sign in, sessions ended',
    }),
    roles: Roles,
    has_password: Type.Boolean({
      description: 'Whether the person has set a password (else: identity provider only)',
    }),
    last_sign_in_at: Nullable(Timestamp),
    created_at: Timestamp,
    updated_at: Timestamp,
    invitation: Type.Optional(
      Type.Unsafe<StaffLink>({ $ref: 'StaffLink', description: 'Only in the answer that made a link' }),
    ),
  },
  {
    $id: 'StaffUser',
    additionalProperties: false,
    description: 'A person who works at one or more facilities and signs in to the console',
    examples: [staffExample],
  },
);
export type StaffUser = Static<typeof StaffUser>;
export const staffRepresentation = representationOf(StaffUser, [RoleGrant, StaffLink, Role]);

export const StaffInvite = Type.Object(
  { email: StaffEmail, name: StaffName, roles: Roles },
  {
    $id: 'StaffInvite',
    additionalProperties: false,
    description: 'A person to invite, with their roles',
    examples: [{ email: staffExample.email, name: staffExample.name, roles: staffExample.roles }],
  },
);
export type StaffInvite = Static<typeof StaffInvite>;

export const StaffUpdate = Type.Partial(
  Type.Object({
    name: StaffName,
    roles: Roles,
    state: StringEnum(['active', 'disabled'], {
      description: '`disabled` ends their sessions at once; `active` lets them sign in again',
    }),
  }),
  {
    $id: 'StaffUpdate',
    additionalProperties: false,
    description: 'The fields to change; `roles` replaces the whole list',
    examples: [{ roles: [{ facility_id: 1, role: 'front_desk' }] }],
  },
);
export type StaffUpdate = Static<typeof StaffUpdate>;

export const StaffParams = Type.Object({ staff_user_id: Id }, { additionalProperties: false });

export const StaffListQuery = Type.Object(
  {
    state: Type.Optional(StringEnum(STAFF_STATES)),
    facility_id: Type.Optional(Id),
    ...PagingQuery,
  },
  { additionalProperties: false },
);

export const StaffList = ListResponse('staff', StaffUser, {
  $id: 'StaffPage',
  examples: [{ staff: [staffExample], next_cursor: null }],
});
