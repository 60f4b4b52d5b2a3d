import { type Static, Type } from 'typebox';
import { representationOf } from '../../core/representation.js';
import {
  CurrencyCode,
  Id,
  ListResponse,
  MoneyAmount,
  Nullable,
  PagingQuery,
  Ref,
} from '../../http/vocabulary/schemas.js';
import { Entitlement, EntitlementList, EntitlementValue } from '../plans/entitlement.schemas.js';
import { BillingPeriod } from '../plans/plan.schemas.js';

const templateExample = {
  id: 1,
  name: 'Tennis adult monthly',
  description: 'Unlimited court booking for one adult, billed monthly.',
  sport_id: 1,
  billing_period: 'monthly',
  price_amount: 5900,
  currency: 'USD',
  duration_days: null,
  entitlements: [
    { key: 'court_booking_window_days', value: 7 },
    { key: 'guest_passes_per_month', value: 2 },
    { key: 'ball_machine_access', value: true },
  ],
};

export const PlanTemplate = Type.Object(
  {
    id: Id,
    name: Type.String({ minLength: 1, maxLength: 120 }),
    description: Nullable(Type.String({ maxLength: 2000 })),
    sport_id: Nullable(Id),
    billing_period: Ref(BillingPeriod),
    price_amount: MoneyAmount,
    currency: CurrencyCode,
    duration_days: Nullable(Type.Integer({ minimum: 1, maximum: 3650 })),
    entitlements: EntitlementList,
  },
  {
    $id: 'PlanTemplate',
    additionalProperties: false,
    description: 'A read-only template to create plans from (POST …/plans with template_id)',
    examples: [templateExample],
  },
);
export type PlanTemplate = Static<typeof PlanTemplate>;
/** The named schemas a template refers to, for whatever compiles it. */
export const TEMPLATE_REFERENCES = [BillingPeriod, Entitlement, EntitlementValue];
export const templateRepresentation = representationOf(PlanTemplate, TEMPLATE_REFERENCES);

export const TemplateListQuery = Type.Object(
  { sport_id: Type.Optional(Id), ...PagingQuery },
  { additionalProperties: false },
);

export const PlanTemplatePage = ListResponse('templates', PlanTemplate, {
  $id: 'PlanTemplatePage',
  examples: [{ templates: [templateExample], next_cursor: 'aWQ6MQ' }],
});
