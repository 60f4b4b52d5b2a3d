import { type Static, Type } from 'typebox';
import { representationOf } from '../../core/representation.js';
import {
  DateOnly,
  FacilityParams,
  Id,
  ListResponse,
  Nullable,
  PagingQuery,
  Ref,
  StringEnum,
  Timestamp,
} from '../../http/vocabulary/schemas.js';
import {
  memberCreateExample,
  memberExample,
  memberPageExample,
  memberUpdateExample,
} from './member.examples.js';
import { MEMBER_STATUSES, statusMovesDescription } from './member-status.js';

export const MEMBER_ROLES = ['member', 'coach', 'staff', 'admin'] as const;
export const MemberRole = StringEnum(MEMBER_ROLES, {
  $id: 'MemberRole',
  description: "The member's role at the facility",
  examples: ['member'],
});
export const MemberStatus = StringEnum(MEMBER_STATUSES, {
  $id: 'MemberStatus',
  description: statusMovesDescription(),
  examples: ['active'],
});
export { MEMBER_STATUSES } from './member-status.js';

const editable = {
  first_name: Type.String({
    minLength: 1,
    maxLength: 100,
    pattern: '\\S',
    'x-pattern-message': 'must not be blank',
    description: 'Surrounding spaces are trimmed',
  }),
  last_name: Nullable(Type.String({ maxLength: 100 })),
  email: Nullable(
    Type.String({
      format: 'email',
      maxLength: 254,
      description: 'Unique per facility among members not removed, ignoring case',
    }),
  ),
  phone: Nullable(
    Type.String({
      maxLength: 32,
      pattern: '^[0-9 +()-]+$',
      'x-pattern-message': 'may hold only digits, spaces and + - ( )',
      description: 'Digits, spaces and + - ( )',
    }),
  ),
  date_of_birth: Nullable(DateOnly, { description: 'Not in the future; at least the policy min_member_age' }),
  sport_id: Nullable(Id),
  role: Ref(MemberRole),
  plan_id: Nullable(Id, { description: 'An active plan of the same facility' }),
  joined_on: DateOnly,
  ends_on: Nullable(DateOnly, {
    description:
      "The membership's last day (a fixed term or a scheduled cancellation); on the day after, in the " +
      "facility's time zone, the member becomes `cancelled` with `status_reason` `expired`. Not before " +
      '`joined_on`. On create it defaults to `joined_on + duration_days - 1` of a plan with `duration_days`; ' +
      'null clears it',
  }),
  notes: Nullable(Type.String({ maxLength: 2000 })),
  waiver_signed_at: Nullable(Timestamp, {
    description:
      "When the member signed the facility's waiver; with the policy's `require_waiver`, needed to become `active`",
  }),
  external_id: Nullable(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        "The member's id in the system the facility comes from (CSV import matches on it); unique per facility among members not removed",
    }),
  ),
};

export const StatusReason = Nullable(
  Type.String({
    minLength: 1,
    maxLength: 200,
    description:
      'Why the status last changed: `freeze_started`, `freeze_ended` or `expired` when the schedule changed ' +
      'it; the text given with a PATCH of `status`; null otherwise',
  }),
);

export const Member = Type.Object(
  {
    id: Id,
    facility_id: Id,
    first_name: editable.first_name,
    last_name: editable.last_name,
    email: editable.email,
    phone: editable.phone,
    date_of_birth: editable.date_of_birth,
    sport_id: editable.sport_id,
    role: editable.role,
    status: Ref(MemberStatus),
    status_reason: StatusReason,
    plan_id: editable.plan_id,
    joined_on: editable.joined_on,
    ends_on: editable.ends_on,
    notes: editable.notes,
    waiver_signed_at: editable.waiver_signed_at,
    external_id: editable.external_id,
    status_changed_at: Timestamp,
    created_at: Timestamp,
    updated_at: Timestamp,
    deleted_at: Nullable(Timestamp, { description: 'When the member was removed; null while not removed' }),
    last_check_in_at: Nullable(Timestamp, {
      description:
        'When the member was last allowed in by an access decision (read-only; docs/access.md); null: never',
    }),
    allowed_transitions: Type.Array(Ref(MemberStatus), {
      description:
        'The statuses a PATCH may move the member to now: the status table, less `frozen` while the ' +
        "policy's `allow_freeze` is false and less `active` while it has `require_waiver` and the member no " +
        '`waiver_signed_at`. `frozen` is offered whatever freezes the member has, since a PATCH to `frozen` ' +
        'overlaps none (a freeze that ended today is resumed, planned ones stay); the yearly freeze limit is ' +
        'checked by the PATCH itself.',
    }),
  },
  {
    $id: 'Member',
    additionalProperties: false,
    description: 'A member of a facility',
    examples: [memberExample],
  },
);
export type Member = Static<typeof Member>;
export const memberRepresentation = representationOf(Member, [MemberRole, MemberStatus]);

export const MemberCreate = Type.Object(
  {
    ...Type.Partial(Type.Object(editable)).properties,
    first_name: editable.first_name,
    status: Type.Optional(
      StringEnum(['pending', 'active'] as const, {
        default: 'active',
        description:
          'A new member starts pending or active; later moves are in the table of the member `status`',
      }),
    ),
  },
  {
    $id: 'MemberCreate',
    additionalProperties: false,
    examples: [memberCreateExample],
    description:
      "Defaults for fields left out: role member, status active, joined_on today in the facility's time zone, " +
      'every other optional field null',
  },
);
export type MemberCreate = Static<typeof MemberCreate>;

export const MemberUpdate = Type.Partial(
  Type.Object({
    ...editable,
    status: Ref(MemberStatus),
    status_reason: { ...StatusReason, description: 'Why the status moves; only with `status`' },
  }),
  {
    $id: 'MemberUpdate',
    additionalProperties: false,
    description: 'The fields to change, or a status move; the others keep their values',
    examples: [memberUpdateExample],
  },
);
export type MemberUpdate = Static<typeof MemberUpdate>;

export const MemberParams = Type.Object(
  { ...FacilityParams.properties, member_id: Id },
  { additionalProperties: false },
);

const listOf = (values: readonly string[]) => `^(${values.join('|')})(,(${values.join('|')}))*$`;

export const MemberListQuery = Type.Object(
  {
    sport_id: Type.Optional(Id),
    status: Type.Optional(
      Type.String({
        pattern: listOf(MEMBER_STATUSES),
        'x-pattern-message': `must be one or more of ${MEMBER_STATUSES.join(', ')}, separated by commas`,
        description: 'One status or a comma-separated list; removed members are listed only when named',
      }),
    ),
    role: Type.Optional(
      Type.String({
        pattern: listOf(MEMBER_ROLES),
        'x-pattern-message': `must be one or more of ${MEMBER_ROLES.join(', ')}, separated by commas`,
        description: 'One role or a comma-separated list',
      }),
    ),
    plan_id: Type.Optional(Id),
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 254,
        description: 'Case-insensitive substring of first name, last name or email',
      }),
    ),
    ...PagingQuery,
  },
  { additionalProperties: false },
);

export const MemberPage = ListResponse('members', Member, {
  $id: 'MemberPage',
  examples: [memberPageExample],
});

/** The list's filters, as the list and the CSV export read them from their query. */
export function memberFilterOf(query: Omit<Static<typeof MemberListQuery>, 'limit' | 'cursor'>) {
  const { sport_id, status, role, plan_id, q } = query;
  return { sportId: sport_id, statuses: status?.split(','), roles: role?.split(','), planId: plan_id, q };
}
