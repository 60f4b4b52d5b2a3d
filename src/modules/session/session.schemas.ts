import { type Static, Type } from 'typebox';
import type { Principal } from '../../core/principal.js';
import { Id, Nullable, StringEnum } from '../../http/vocabulary/schemas.js';

export const Session = Type.Object(
  {
    auth_mode: StringEnum(['api-key', 'none'], {
      description: '`none` when the service runs with authentication off (AUTH_MODE=none)',
    }),
    key_name: Type.String({
      description: "The API key's name (`AUTH_MODE=none` when authentication is off)",
    }),
    role: StringEnum(['admin', 'viewer'], { description: '`viewer` keys may only read' }),
    facility_ids: Nullable(Type.Array(Id), {
      description: 'The facilities the key may reach, ascending; null for every facility',
    }),
  },
  {
    $id: 'Session',
    additionalProperties: false,
    description: 'Who the caller is: what the API key in the request may do',
    examples: [{ auth_mode: 'api-key', key_name: 'front desk', role: 'viewer', facility_ids: [1, 4] }],
  },
);
export type Session = Static<typeof Session>;

export function sessionOf(principal: Principal, authMode: 'api-key' | 'none'): Session {
  return {
    auth_mode: authMode,
    key_name: principal.keyName,
    role: principal.role,
    facility_ids: principal.facilityIds === 'all' ? null : [...principal.facilityIds].sort((a, b) => a - b),
  };
}
