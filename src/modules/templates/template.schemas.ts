import { type Static, Type } from 'typebox';
import { representationOf } from '../../core/representation.js';
import { CurrencyCode, Id, ListResponse, MoneyAmount, Nullable, PagingQuery } from '../../http/schemas.js';
import { EntitlementList } from '../plans/entitlement.schemas.js';
import { BillingPeriod } from '../plans/plan.schemas.js';

export const Template = Type.Object(
  {
    id: Id,
    name: Type.String({ minLength: 1, maxLength: 120 }),
    description: Nullable(Type.String({ maxLength: 2000 })),
    sport_id: Nullable(Id),
    billing_period: BillingPeriod,
    price_amount: MoneyAmount,
    currency: CurrencyCode,
    duration_days: Nullable(Type.Integer({ minimum: 1, maximum: 3650 })),
    entitlements: EntitlementList,
  },
  { additionalProperties: false },
);
export type Template = Static<typeof Template>;
export const templateRepresentation = representationOf(Template);

export const TemplateListQuery = Type.Object(
  { sport_id: Type.Optional(Id), ...PagingQuery },
  { additionalProperties: false },
);

export const TemplateList = ListResponse('templates', Template);
