import { type Static, Type } from 'typebox';
import { representationOf } from '../../core/representation.js';
import {
  CurrencyCode,
  FacilityParams,
  Id,
  ListResponse,
  MoneyAmount,
  Nullable,
  PagingQuery,
  Ref,
  StringEnum,
  Timestamp,
} from '../../http/vocabulary/schemas.js';
import { planCreateExample, planExample, planPageExample, planUpdateExample } from './plan.examples.js';

export const BILLING_PERIODS = ['one_time', 'weekly', 'monthly', 'quarterly', 'yearly'] as const;
export const BillingPeriod = StringEnum(BILLING_PERIODS, {
  $id: 'BillingPeriod',
  description: 'How often the price is charged',
  examples: ['monthly'],
});

/** Checked after trimming (see plan.routes.ts), so a name of only spaces is empty. */
const PlanName = Type.String({
  minLength: 1,
  maxLength: 120,
  description:
    '1 to 120 characters after trimming surrounding white space; unique per facility, ignoring case',
});

const editable = {
  name: PlanName,
  description: Nullable(Type.String({ maxLength: 2000 })),
  sport_id: Nullable(Id, { description: 'null: all sports' }),
  price_amount: MoneyAmount,
  currency: CurrencyCode,
  billing_period: Ref(BillingPeriod),
  duration_days: Nullable(Type.Integer({ minimum: 1, maximum: 3650 }), { description: 'null: open-ended' }),
  joining_fee_amount: MoneyAmount,
  max_members: Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000 }), { description: 'null: no cap' }),
  is_active: Type.Boolean(),
};

export const Plan = Type.Object(
  {
    id: Id,
    facility_id: Id,
    ...editable,
    template_id: Nullable(Id),
    created_at: Timestamp,
    updated_at: Timestamp,
    deleted_at: Nullable(Timestamp, { description: 'When the plan was archived; null while it is not' }),
  },
  {
    $id: 'Plan',
    additionalProperties: false,
    description: 'A membership plan of a facility',
    examples: [planExample],
  },
);
export type Plan = Static<typeof Plan>;
export const planRepresentation = representationOf(Plan, [BillingPeriod]);

export const PlanCreate = Type.Object(
  {
    ...Type.Partial(Type.Object(editable)).properties,
    name: PlanName,
    template_id: Type.Optional(
      Nullable(Id, {
        description: 'Copy the fields the body leaves out, and the entitlements, from this template',
      }),
    ),
  },
  {
    $id: 'PlanCreate',
    additionalProperties: false,
    examples: [planCreateExample],
    description:
      'Defaults for fields left out: description null, sport_id null, price_amount 0, currency the facility ' +
      "policy's currency, billing_period monthly, duration_days null, joining_fee_amount 0, max_members null, " +
      "is_active true; with template_id, the template's fields and entitlements are copied first",
  },
);
export type PlanCreate = Static<typeof PlanCreate>;

export const PlanUpdate = Type.Partial(Type.Object(editable), {
  $id: 'PlanUpdate',
  additionalProperties: false,
  description: 'The fields to change; the others keep their values',
  examples: [planUpdateExample],
});
export type PlanUpdate = Static<typeof PlanUpdate>;

export const PlanParams = Type.Object(
  { ...FacilityParams.properties, plan_id: Id },
  { additionalProperties: false },
);

export const PlanListQuery = Type.Object(
  {
    sport_id: Type.Optional(Id),
    include_inactive: Type.Optional(
      Type.Boolean({ description: 'true also lists inactive and soft-deleted plans' }),
    ),
    ...PagingQuery,
  },
  { additionalProperties: false },
);

export const PlanPage = ListResponse('plans', Plan, { $id: 'PlanPage', examples: [planPageExample] });
