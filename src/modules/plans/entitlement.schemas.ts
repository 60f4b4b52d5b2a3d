import { type Static, Type } from 'typebox';
import { representationOf } from '../../core/representation.js';
import { PlanParams } from './plan.schemas.js';

export const MAX_ENTITLEMENTS_PER_PLAN = 100;

export const EntitlementKey = Type.String({
  pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$',
  'x-pattern-message': 'must be 1 to 64 of A-Z a-z 0-9 _ . - and start with a letter or digit',
  minLength: 1,
  maxLength: 64,
  description: '1 to 64 of A-Z a-z 0-9 _ . -, starting with a letter or digit; case-sensitive',
});

/** A string (up to 500 characters), a finite number or a boolean. */
export const EntitlementValue = Type.Unsafe<string | number | boolean>({
  type: ['string', 'number', 'boolean'],
  maxLength: 500,
  // JSON.parse reads 1e400 as Infinity, which JSON can neither store nor
  // answer; these bounds keep numbers finite.
  minimum: -Number.MAX_VALUE,
  maximum: Number.MAX_VALUE,
});

export const Entitlement = Type.Object(
  { key: EntitlementKey, value: EntitlementValue },
  { additionalProperties: false },
);
export type Entitlement = Static<typeof Entitlement>;
export const entitlementRepresentation = representationOf(Entitlement);

export const EntitlementList = Type.Array(Entitlement, { maxItems: MAX_ENTITLEMENTS_PER_PLAN });

export const EntitlementCollection = Type.Object({ entitlements: EntitlementList });
export const entitlementCollectionRepresentation = representationOf(EntitlementCollection);

export const ReplaceEntitlementsBody = Type.Object(
  {
    entitlements: Type.Union(
      [
        EntitlementList,
        Type.Record(EntitlementKey, EntitlementValue, {
          maxProperties: MAX_ENTITLEMENTS_PER_PLAN,
          additionalProperties: false,
          description: 'map form: key to value',
        }),
      ],
      { description: 'array of {key, value}, or a map of key to value' },
    ),
  },
  { additionalProperties: false },
);

export const SetEntitlementBody = Type.Object(
  {
    key: Type.Optional(Type.String({ description: 'if present, must equal the key in the path' })),
    value: EntitlementValue,
  },
  { additionalProperties: false },
);

export const EntitlementParams = Type.Object(
  { ...PlanParams.properties, key: EntitlementKey },
  { additionalProperties: false },
);
