import { type Static, Type } from 'typebox';
import { representationOf } from '../../../core/representation.js';
import {
  Id,
  ListResponse,
  Nullable,
  PagingQuery,
  StringEnum,
  Timestamp,
} from '../../../http/vocabulary/schemas.js';
import {
  credentialCreatedExample,
  credentialCreateExample,
  credentialExample,
  credentialPageExample,
} from './credential.examples.js';

export const CREDENTIAL_TYPES = ['card', 'qr', 'pin'] as const;
export type CredentialType = (typeof CREDENTIAL_TYPES)[number];

const CredentialTypeSchema = StringEnum(CREDENTIAL_TYPES, {
  description:
    '`card`: a card or fob number as its reader sends it; `qr`: a code shown on a phone or printed; ' +
    '`pin`: digits typed at a keypad',
});

const label = Nullable(Type.String({ minLength: 1, maxLength: 100 }), {
  description: 'What the credential is, for the front desk ("Blue key fob")',
});

export const Credential = Type.Object(
  {
    id: Id,
    facility_id: Id,
    member_id: Id,
    type: CredentialTypeSchema,
    value_last4: Type.String({
      maxLength: 4,
      description: "The value's last four characters, to recognise it; the value itself is not kept",
    }),
    label,
    created_at: Timestamp,
    revoked_at: Nullable(Timestamp, {
      description: 'When the credential was revoked (DELETE); a revoked credential opens no door',
    }),
    value: Type.Optional(
      Type.String({
        description:
          'The whole value: only in the answer that created it, never again (the service keeps its SHA-256)',
      }),
    ),
  },
  {
    $id: 'Credential',
    additionalProperties: false,
    description:
      "A member's card, QR code or PIN, which a door presents to ask for an access decision. Its value " +
      'is unique in the facility among credentials not revoked.',
    examples: [credentialExample, credentialCreatedExample],
  },
);
export type Credential = Static<typeof Credential>;
export const credentialRepresentation = representationOf(Credential);

export const CredentialCreate = Type.Object(
  {
    type: CredentialTypeSchema,
    value: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        pattern: '^[!-~]{1,64}$',
        description:
          'The value, as the reader sends it: 1 to 64 printable ASCII characters without spaces; a `pin` ' +
          'is 4 to 12 digits. Required for `card` and `pin`; for `qr` left out, the service makes a ' +
          'random one (22 characters, base64url).',
      }),
    ),
    label: Type.Optional(label),
  },
  {
    $id: 'CredentialCreate',
    additionalProperties: false,
    description: 'A new credential: its type, its value (a QR code can be made by the service) and a label',
    examples: [credentialCreateExample, { type: 'qr', label: 'Phone' }],
  },
);
export type CredentialCreate = Static<typeof CredentialCreate>;

export const CredentialPage = ListResponse('credentials', Credential, {
  $id: 'CredentialPage',
  examples: [credentialPageExample],
});

export const MemberCredentialsParams = Type.Object(
  { facility_id: Id, member_id: Id },
  { additionalProperties: false },
);

export const CredentialParams = Type.Object(
  { facility_id: Id, member_id: Id, credential_id: Id },
  { additionalProperties: false },
);

export const CredentialListQuery = Type.Object({ ...PagingQuery }, { additionalProperties: false });
