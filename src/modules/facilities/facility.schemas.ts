import { type Static, Type } from 'typebox';
import { representationOf } from '../../core/representation.js';
import {
  CurrencyCode,
  FacilityParams,
  Id,
  ListResponse,
  Nullable,
  PagingQuery,
  StringEnum,
  Timestamp,
} from '../../http/vocabulary/schemas.js';
import {
  facilityCreateExample,
  facilityExample,
  facilityPageExample,
  facilityUpdateExample,
} from './facility.examples.js';

export const FACILITY_STATUSES = ['active', 'archived'] as const;

/** Checked after trimming (see facility.routes.ts), so a name of only spaces is empty. */
const FacilityName = Type.String({
  minLength: 1,
  maxLength: 120,
  description:
    '1 to 120 characters after trimming surrounding white space; unique among facilities that are not ' +
    'archived, ignoring case',
});

const editable = {
  name: FacilityName,
  address: Nullable(Type.String({ minLength: 1, maxLength: 500 })),
  contact_email: Nullable(Type.String({ format: 'email', maxLength: 254 })),
  phone: Nullable(Type.String({ minLength: 1, maxLength: 40, pattern: '^[0-9+() .-]+$' })),
};

export const Facility = Type.Object(
  {
    id: Id,
    name: Nullable(FacilityName, { description: 'null for a facility used by its id before it was named' }),
    address: editable.address,
    contact_email: editable.contact_email,
    phone: editable.phone,
    status: StringEnum(FACILITY_STATUSES, {
      description:
        '`archived`: kept with all its data and still reachable by id, left out of the list by default',
    }),
    archived_at: Nullable(Timestamp),
    created_at: Nullable(Timestamp, { description: 'null for a facility never named nor written to' }),
    updated_at: Nullable(Timestamp, { description: 'null for a facility never named nor written to' }),
  },
  {
    $id: 'Facility',
    additionalProperties: false,
    description: 'A facility: a site with its own plans, members and policy',
    examples: [facilityExample],
  },
);
export type Facility = Static<typeof Facility>;
export const facilityRepresentation = representationOf(Facility);
export type CreatedFacility = Facility & { created_at: string; updated_at: string };

export const FacilityCreate = Type.Object(
  {
    name: FacilityName,
    address: Type.Optional(editable.address),
    contact_email: Type.Optional(editable.contact_email),
    phone: Type.Optional(editable.phone),
    timezone: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: "The policy's time zone (IANA name)" }),
    ),
    currency: Type.Optional({ ...CurrencyCode, description: "The policy's currency" }),
  },
  {
    $id: 'FacilityCreate',
    additionalProperties: false,
    description:
      "A new facility; `timezone` and `currency` are its policy's (else the policy's defaults). Its id is " +
      'above every id in use.',
    examples: [facilityCreateExample],
  },
);
export type FacilityCreate = Static<typeof FacilityCreate>;

export const FacilityUpdate = Type.Partial(
  Type.Object({ ...editable, status: StringEnum(FACILITY_STATUSES) }),
  {
    $id: 'FacilityUpdate',
    additionalProperties: false,
    description: 'The fields to change; `status: archived` archives it, `active` brings it back',
    examples: [facilityUpdateExample],
  },
);
export type FacilityUpdate = Static<typeof FacilityUpdate>;

export const FacilityListQuery = Type.Object(
  {
    status: Type.Optional(
      StringEnum([...FACILITY_STATUSES, 'all'], { description: 'Which facilities: `active` by default' }),
    ),
    ...PagingQuery,
  },
  { additionalProperties: false },
);

export const FacilityList = ListResponse('facilities', Facility, {
  $id: 'FacilityPage',
  examples: [facilityPageExample],
});

export { FacilityParams };
