import { type Static, Type } from 'typebox';
import { representationOf } from '../../core/representation.js';
import { Actor } from '../../http/vocabulary/people-schemas.js';
import {
  Id,
  ListResponse,
  MAX_ID,
  Nullable,
  PagingQuery,
  Ref,
  StringEnum,
  Timestamp,
} from '../../http/vocabulary/schemas.js';

export const AUDIT_ACTIONS = ['create', 'update', 'delete', 'restore', 'hard_delete'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * The resource types of the audit trail: every module's (`resourceTypes` of
 * its ServiceModule), known once they are all loaded (src/modules.ts makes
 * this schema); other schemas refer to it by `$id`. Written as the string
 * it is, whatever the list.
 */
export function auditResourceTypeSchema(resourceTypes: readonly string[]) {
  return StringEnum(resourceTypes, {
    $id: 'AuditResourceType',
    description: 'The kind of resource written',
    examples: ['member'],
  });
}
const ResourceTypeRef = Type.Unsafe<string>({ $ref: 'AuditResourceType' });
const ResourceTypeForm = Type.String({ $id: 'AuditResourceType' });

const Change = Type.Object(
  { before: Type.Unknown(), after: Type.Unknown() },
  { description: 'The value before and after the write (null when absent)' },
);

const auditEventExample = {
  id: 118,
  facility_id: 1,
  resource_type: 'member',
  resource_id: '42',
  action: 'update',
  api_key_id: 3,
  api_key_name: 'front desk',
  actor: { type: 'api_key', id: 3, name: 'front desk' },
  changes: {
    status: { before: 'active', after: 'frozen' },
    status_changed_at: { before: '2026-03-02T09:20:11.502Z', after: '2026-03-09T16:42:07.902Z' },
    notes: { before: null, after: 'Travelling until May' },
  },
  request_id: '4e8486049265b344-1x',
  occurred_at: '2026-03-09T16:42:07.905Z',
};

export const AuditEvent = Type.Object(
  {
    id: Id,
    facility_id: Type.Integer({
      minimum: 0,
      maximum: MAX_ID,
      description:
        'The facility; 0 for the whole service: the creation or revocation of an API key for every ' +
        "facility, which is in every facility's trail",
    }),
    resource_type: Type.Unsafe<string>({
      $ref: 'AuditResourceType',
      description:
        '`api_key`: an API key created (`create`) or revoked (`delete`) with the `keys` command, in the ' +
        'trail of each facility of its scope; its changes are its name, role, `facility_ids` (a list, or ' +
        '`all`), `created_at` and `revoked_at`, never its secret',
    }),
    resource_id: Type.String({
      description:
        'The plan, member, freeze, API key, webhook endpoint or webhook delivery id; the plan id for ' +
        'entitlements; the facility id for the policy',
    }),
    action: StringEnum(AUDIT_ACTIONS),
    api_key_id: Nullable(Type.Integer({ minimum: 0 }), {
      description:
        '0 is ADMIN_API_KEY; null when authentication is off, for the changes the service makes by itself ' +
        '(api_key_name `system`: the schedule, the first start) and for those made with the `facility-admin` ' +
        'command (api_key_name `cli`)',
    }),
    api_key_name: Type.String({
      description: "Who made it: as `actor.name` (the key's name, the person's, `system` or `cli`)",
    }),
    actor: Ref(Actor),
    changes: Type.Record(Type.String(), Change, {
      description: 'Changed fields (entitlement keys for entitlements)',
    }),
    request_id: Nullable(Type.String()),
    occurred_at: Timestamp,
  },
  {
    $id: 'AuditEvent',
    additionalProperties: false,
    description: 'One write: who made it, when, and each changed field before and after',
    examples: [auditEventExample],
  },
);
export type AuditEvent = Static<typeof AuditEvent>;
export const auditEventRepresentation = representationOf(AuditEvent, [ResourceTypeForm, Actor]);

export const AuditEventListQuery = Type.Object(
  {
    resource_type: Type.Optional(ResourceTypeRef),
    resource_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    action: Type.Optional(StringEnum(AUDIT_ACTIONS)),
    since: Type.Optional(
      Type.String({ format: 'date-time', description: 'Only events at or after this time' }),
    ),
    ...PagingQuery,
  },
  { additionalProperties: false },
);

export const AuditEventPage = ListResponse('audit_events', AuditEvent, {
  $id: 'AuditEventPage',
  examples: [{ audit_events: [auditEventExample], next_cursor: 'aWQ6MTE4' }],
});
