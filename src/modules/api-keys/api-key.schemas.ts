import { type Static, Type } from 'typebox';
import { representationOf } from '../../core/representation.js';
import { Role } from '../../http/vocabulary/people-schemas.js';
import { Id, ListResponse, Nullable, Ref, Timestamp } from '../../http/vocabulary/schemas.js';

const apiKeyExample = {
  id: 3,
  name: 'door controller',
  role: 'front_desk',
  facility_ids: [1],
  created_at: '2026-03-02T09:15:04.118Z',
  revoked_at: null,
};

const FacilityIds = Nullable(Type.Array(Id, { minItems: 1, maxItems: 1000, uniqueItems: true }), {
  description: 'The facilities the key may reach; null for every facility',
});

export const ApiKeyResource = Type.Object(
  {
    id: Id,
    name: Type.String(),
    role: Ref(Role),
    facility_ids: FacilityIds,
    created_at: Timestamp,
    revoked_at: Nullable(Timestamp),
    secret: Type.Optional(
      Type.String({ description: 'The key itself: only in the answer that created it, never again' }),
    ),
  },
  {
    $id: 'ApiKey',
    additionalProperties: false,
    description: 'A key for integrations',
    examples: [apiKeyExample],
  },
);
export type ApiKeyResource = Static<typeof ApiKeyResource>;
export const apiKeyRepresentation = representationOf(ApiKeyResource, [Role]);

export const ApiKeyCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 120 }),
    role: Ref(Role),
    facility_ids: FacilityIds,
  },
  {
    $id: 'ApiKeyCreate',
    additionalProperties: false,
    examples: [{ name: 'door controller', role: 'front_desk', facility_ids: [1] }],
  },
);
export type ApiKeyCreate = Static<typeof ApiKeyCreate>;

export const ApiKeyParams = Type.Object({ api_key_id: Id }, { additionalProperties: false });

export const ApiKeyList = ListResponse('api_keys', ApiKeyResource, {
  $id: 'ApiKeyPage',
  examples: [{ api_keys: [apiKeyExample], next_cursor: null }],
});
