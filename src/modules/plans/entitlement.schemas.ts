import { type Static, Type } from 'typebox';
import { representationOf } from '../../core/representation.js';
import { Ref } from '../../http/vocabulary/schemas.js';
import { entitlementsExample, entitlementsReplaceExample } from './plan.examples.js';
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
  $id: 'EntitlementValue',
  description: 'A string (up to 500 characters), a finite number or a boolean',
  examples: [2],
});

export const Entitlement = Type.Object(
  { key: EntitlementKey, value: Ref(EntitlementValue) },
  {
    $id: 'Entitlement',
    additionalProperties: false,
    description: 'One entitlement of a plan: what a member of the plan gets',
    examples: [entitlementsExample.entitlements[0]],
  },
);
export type Entitlement = Static<typeof Entitlement>;
export const entitlementRepresentation = representationOf(Entitlement, [EntitlementValue]);

export const EntitlementList = Type.Array(Ref(Entitlement), { maxItems: MAX_ENTITLEMENTS_PER_PLAN });

export const Entitlements = Type.Object(
  { entitlements: EntitlementList },
  {
    $id: 'Entitlements',
    additionalProperties: false,
    description: "A plan's entitlements, sorted by key (at most 100)",
    examples: [entitlementsExample],
  },
);
export const entitlementCollectionRepresentation = representationOf(Entitlements, [
  Entitlement,
  EntitlementValue,
]);

export const ReplaceEntitlementsBody = Type.Object(
  {
    entitlements: Type.Union(
      [
        EntitlementList,
        Type.Record(EntitlementKey, Ref(EntitlementValue), {
          maxProperties: MAX_ENTITLEMENTS_PER_PLAN,
          additionalProperties: false,
          description: 'map form: key to value',
        }),
      ],
      { description: 'array of {key, value}, or a map of key to value' },
    ),
  },
  {
    $id: 'EntitlementsReplace',
    additionalProperties: false,
    description: "All of a plan's entitlements: those not named are removed",
    examples: [entitlementsReplaceExample],
  },
);

export const SetEntitlementBody = Type.Object(
  {
    key: Type.Optional(Type.String({ description: 'if present, must equal the key in the path' })),
    value: Ref(EntitlementValue),
  },
  {
    $id: 'EntitlementSet',
    additionalProperties: false,
    description: 'The value of one entitlement',
    examples: [{ value: true }],
  },
);

export const EntitlementParams = Type.Object(
  { ...PlanParams.properties, key: EntitlementKey },
  { additionalProperties: false },
);
