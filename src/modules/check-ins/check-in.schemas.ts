import { type Static, Type } from 'typebox';
import { representationOf } from '../../core/representation.js';
import { Actor } from '../../http/vocabulary/people-schemas.js';
import {
  Id,
  ListResponse,
  Nullable,
  PagingQuery,
  Ref,
  StringEnum,
  Timestamp,
} from '../../http/vocabulary/schemas.js';
import { checkInExample, checkInPageExample, occupancyExample } from './check-in.examples.js';

/** Every reason an access decision can give, in the order a decision lists them (docs/access.md). */
export const REASON_CODES = [
  'credential_unknown',
  'credential_revoked',
  'member_not_active',
  'term_not_started',
  'term_ended',
  'waiver_required',
  'plan_inactive',
  'outside_opening_hours',
  'area_not_included',
  'visit_limit_reached',
  'guest_passes_exhausted',
  'facility_full',
  'already_checked_in',
] as const;
export type ReasonCode = (typeof REASON_CODES)[number];

export const ReasonCodeSchema = StringEnum(REASON_CODES, {
  $id: 'AccessReasonCode',
  description: 'Why an access decision denies (or, in `warn` mode, warns): docs/access.md lists each',
  examples: ['visit_limit_reached'],
});

export const Decision = StringEnum(['allow', 'deny'] as const, {
  description: '`allow`: let the person in; `deny`: keep the door shut',
});

export const CheckIn = Type.Object(
  {
    id: Id,
    facility_id: Id,
    member_id: Nullable(Id, { description: 'null when the credential was unknown' }),
    credential_id: Nullable(Id, { description: 'The credential presented; null when asked by member id' }),
    credential_last4: Nullable(Type.String(), {
      description: "The last four characters of the credential's value",
    }),
    area: Nullable(Type.String(), {
      description: 'The entitlement key of the area asked for; null: the facility',
    }),
    guests: Type.Integer({ minimum: 0, maximum: 20, description: 'Guests coming in with the member' }),
    decision: Decision,
    reasons: Type.Array(Ref(ReasonCodeSchema), { description: 'The codes of the reasons, in order' }),
    actor: { ...Ref(Actor), description: 'Who asked: the door controller or the person at the front desk' },
    checked_in_at: { ...Timestamp, description: 'When the decision was made' },
    checked_out_at: Nullable(Timestamp, { description: 'When the member was checked out; null: not (yet)' }),
  },
  {
    $id: 'CheckIn',
    additionalProperties: false,
    description:
      'A recorded access decision: allowed (a visit) or denied. The log keeps it when the member or the credential is gone.',
    examples: [checkInExample],
  },
);
export type CheckIn = Static<typeof CheckIn>;
export const checkInRepresentation = representationOf(CheckIn, [ReasonCodeSchema, Actor]);

export const CheckInPage = ListResponse('check_ins', CheckIn, {
  $id: 'CheckInPage',
  examples: [checkInPageExample],
});

export const CheckInListQuery = Type.Object(
  {
    ...PagingQuery,
    member_id: Type.Optional(Id),
    decision: Type.Optional(Decision),
    since: Type.Optional({ ...Timestamp, description: 'Only check-ins at or after this instant' }),
    until: Type.Optional({ ...Timestamp, description: 'Only check-ins before this instant' }),
  },
  { additionalProperties: false },
);
export type CheckInListQuery = Static<typeof CheckInListQuery>;

export const CheckInParams = Type.Object(
  { facility_id: Id, check_in_id: Id },
  { additionalProperties: false },
);

export const Occupancy = Type.Object(
  {
    present: Type.Integer({
      minimum: 0,
      description: 'Members allowed in, not checked out, within the cutoff',
    }),
    guests: Type.Integer({ minimum: 0, description: 'The guests they brought' }),
    total: Type.Integer({ minimum: 0, description: '`present` + `guests`: what `max_occupancy` limits' }),
    max_occupancy: Nullable(Type.Integer({ minimum: 1 }), { description: "The policy's limit; null: none" }),
    cutoff_minutes: Type.Integer({
      minimum: 1,
      description: 'A check-in older than this counts as gone (a member who left without checking out)',
    }),
    as_of: Timestamp,
  },
  {
    $id: 'Occupancy',
    additionalProperties: false,
    description: 'Who is in the facility now, from the check-ins',
    examples: [occupancyExample],
  },
);
export type Occupancy = Static<typeof Occupancy>;
