import { type Static, Type } from 'typebox';
import { representationOf } from '../../../core/representation.js';
import {
  DateOnly,
  Id,
  ListResponse,
  Nullable,
  PagingQuery,
  Timestamp,
} from '../../../http/vocabulary/schemas.js';
import { freezeCreateExample, freezeExample, freezePageExample } from './freeze.examples.js';

const reason = Nullable(Type.String({ minLength: 1, maxLength: 500 }), {
  description: 'Why the member is frozen, for the front desk',
});

export const Freeze = Type.Object(
  {
    id: Id,
    member_id: Id,
    starts_on: { ...DateOnly, description: "The first frozen day, in the facility's time zone" },
    ends_on: Nullable(DateOnly, {
      description:
        'The last frozen day; null for the open-ended freeze a PATCH of the member to `frozen` opens, ' +
        'until the member is active again, or until the day before a planned freeze starts (it is then that ' +
        'day)',
    }),
    reason,
    created_at: Timestamp,
    cancelled_at: Nullable(Timestamp, {
      description: 'When the freeze was cancelled (DELETE); a freeze under way then ends today',
    }),
  },
  {
    $id: 'Freeze',
    additionalProperties: false,
    description:
      'A dated freeze of a member: frozen from `starts_on` to `ends_on`, both included. On `starts_on` an ' +
      'active member becomes `frozen` (`status_reason` `freeze_started`); on the day after `ends_on` it ' +
      'becomes `active` again (`freeze_ended`).',
    examples: [freezeExample],
  },
);
export type Freeze = Static<typeof Freeze>;
export const freezeRepresentation = representationOf(Freeze);

export const FreezeCreate = Type.Object(
  {
    starts_on: { ...DateOnly, description: "Today or later, in the facility's time zone" },
    ends_on: { ...DateOnly, description: 'On or after `starts_on`' },
    reason: Type.Optional(reason),
  },
  {
    $id: 'FreezeCreate',
    additionalProperties: false,
    description: 'A planned freeze: its first and last frozen days',
    examples: [freezeCreateExample],
  },
);
export type FreezeCreate = Static<typeof FreezeCreate>;

export const FreezePage = ListResponse('freezes', Freeze, {
  $id: 'FreezePage',
  examples: [freezePageExample],
});

export const MemberFreezesParams = Type.Object(
  { facility_id: Id, member_id: Id },
  { additionalProperties: false },
);

export const FreezeParams = Type.Object(
  { facility_id: Id, member_id: Id, freeze_id: Id },
  { additionalProperties: false },
);

export const FreezeListQuery = Type.Object({ ...PagingQuery }, { additionalProperties: false });
