import { type Static, Type } from 'typebox';
import { representationOf } from '../../core/representation.js';
import { Actor, NullableRef } from '../../http/vocabulary/people-schemas.js';
import { Id, Nullable, Ref, StringEnum, Timestamp } from '../../http/vocabulary/schemas.js';
import { CheckIn, Decision, ReasonCodeSchema } from '../check-ins/check-in.schemas.js';
import { MemberStatus } from '../members/member.schemas.js';
import { EntitlementKey, EntitlementValue } from '../plans/entitlement.schemas.js';
import {
  accessDecisionExample,
  accessDecisionRequestExample,
  deniedDecisionExample,
} from './access-decision.examples.js';

/** Guests one member may bring at once. */
export const MAX_GUESTS = 20;

export const AccessDecisionRequest = Type.Object(
  {
    credential: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        description: 'The value a reader got from a card, a QR code or a PIN pad, exactly as read',
      }),
    ),
    member_id: Type.Optional({ ...Id, description: 'The member, when the front desk looked them up' }),
    area: Type.Optional({
      ...EntitlementKey,
      description:
        "The area asked for: an entitlement key (e.g. `sauna`) that the member's plan must include",
    }),
    guests: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_GUESTS,
        default: 0,
        description: 'Guests coming in with the member',
      }),
    ),
    dry_run: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'Decide without recording anything (no check-in, no event)',
      }),
    ),
    at: Type.Optional({
      ...Timestamp,
      description:
        'Only with `dry_run` true: decide as if it were this instant (e.g. "could she come tomorrow at 7?")',
    }),
  },
  {
    $id: 'AccessDecisionRequest',
    additionalProperties: false,
    description: 'Who wants to come in: exactly one of `credential` and `member_id`',
    examples: [accessDecisionRequestExample],
  },
);
export type AccessDecisionRequest = Static<typeof AccessDecisionRequest>;

export const AccessReason = Type.Object(
  {
    code: Ref(ReasonCodeSchema),
    message: Type.String({ description: 'A plain sentence the front desk can read out' }),
    until: Nullable(Timestamp, { description: 'When this reason stops holding, when the service knows' }),
    status: Type.Optional({
      ...Ref(MemberStatus),
      description: "The member's status (`member_not_active` only)",
    }),
  },
  {
    $id: 'AccessReason',
    additionalProperties: false,
    description: 'One rule the decision failed',
    examples: [deniedDecisionExample.reasons[0]],
  },
);
export type AccessReason = Static<typeof AccessReason>;

const DecisionMember = Type.Object(
  {
    id: Id,
    first_name: Type.String(),
    last_name: Nullable(Type.String()),
    status: Ref(MemberStatus),
    plan_id: Nullable(Id),
    plan_name: Nullable(Type.String()),
  },
  { additionalProperties: false, description: 'The member judged' },
);

const Balance = {
  limit: Type.Integer({ minimum: 0 }),
  used: Type.Integer({ minimum: 0 }),
  left: Type.Integer({ minimum: 0 }),
  resets_at: { ...Timestamp, description: 'When the period ends and the count starts again' },
};

export const VisitBalance = Type.Object(
  {
    period: StringEnum(['day', 'week', 'month'] as const, {
      description: "The period the limit counts: the facility's local day, week or month",
    }),
    ...Balance,
  },
  {
    $id: 'VisitBalance',
    additionalProperties: false,
    description: 'Visits of a visit limit (`visits_per_day`, `visits_per_week`, `visits_per_month`)',
    examples: [accessDecisionExample.remaining.visits],
  },
);

export const AccessDecision = Type.Object(
  {
    decision: Decision,
    reasons: Type.Array(Ref(AccessReason), {
      description: 'Every rule that failed, in the order docs/access.md lists them; empty when allowed',
    }),
    member: Nullable(DecisionMember, { description: 'null when the credential is unknown or revoked' }),
    entitlements: Nullable(Type.Record(Type.String(), Ref(EntitlementValue)), {
      description: "The entitlements of the member's plan, which the decision applied; null without a plan",
    }),
    remaining: Type.Object(
      {
        visits: NullableRef<Static<typeof VisitBalance>>('VisitBalance', {
          description: 'The visit limit with fewest visits left; null when the plan sets none',
        }),
        guest_passes: Nullable(Type.Object(Balance, { additionalProperties: false }), {
          description: 'Guest passes of this month; null when the member has none',
        }),
      },
      { additionalProperties: false, description: "The member's balances, before this decision" },
    ),
    check_in: NullableRef<CheckIn>('CheckIn', { description: 'The check-in recorded; null on a dry run' }),
    decided_at: Timestamp,
    dry_run: Type.Boolean(),
  },
  {
    $id: 'AccessDecision',
    additionalProperties: false,
    description: 'Whether to let the person in, why not, and what their plan leaves them',
    examples: [accessDecisionExample, deniedDecisionExample],
  },
);
export type AccessDecision = Static<typeof AccessDecision>;
export const accessDecisionRepresentation = representationOf(AccessDecision, [
  AccessReason,
  VisitBalance,
  ReasonCodeSchema,
  MemberStatus,
  EntitlementValue,
  CheckIn,
  Actor,
]);
