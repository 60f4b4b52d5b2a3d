import { type Static, type TSchema, Type } from 'typebox';

/**
 * Schemas shared by every resource. Each route's schema is written once and
 * gives validation, static types, response serialization and the OpenAPI
 * document.
 */

export const MAX_ID = Number.MAX_SAFE_INTEGER;

export const Id = Type.Integer({ minimum: 1, maximum: MAX_ID });

/** `type: [T, "null"]` rather than anyOf, so errors and docs stay plain. */
export function Nullable<T extends TSchema>(schema: T, options: Record<string, unknown> = {}) {
  const plain = schema as unknown as { type: string };
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [plain.type, 'null'], ...options });
}

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC timestamp' });
export const DateOnly = Type.String({
  format: 'date',
  // Year 0000 is a valid ISO date but not a PostgreSQL one.
  pattern: '^(?!0000)',
  'x-pattern-message': 'must be a date from year 0001 on',
  description: 'Calendar date, YYYY-MM-DD, from year 0001',
});
export const MoneyAmount = Type.Integer({
  minimum: 0,
  maximum: 100_000_000,
  description: 'Amount in the currency minor unit (cents)',
});
export const CurrencyCode = Type.String({
  pattern: '^[A-Z]{3}$',
  'x-pattern-message': 'must be an ISO 4217 code: three upper-case letters',
  description: 'ISO 4217 code',
});

/** The query of an operation that takes no parameters: any name in it is 400, as a typo is on the lists. */
export const NoQuery = Type.Object({}, { additionalProperties: false });

export const FacilityParams = Type.Object({ facility_id: Id }, { additionalProperties: false });

export const PagingQuery = {
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 1000,
      default: 100,
      description:
        'Most items in the page. A page holds fewer when its items reach the byte budget for one page ' +
        '(PAGE_MAX_BYTES, 256 KiB of JSON by default; at least one item): follow next_cursor, do not count items.',
    }),
  ),
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      // Cursors this service issues are base64url of "id:<n>"; anything else is refused with the other errors.
      pattern: '^aWQ6[A-Za-z0-9_-]+$',
      'x-pattern-message': 'is not a cursor this service issued',
      description: 'next_cursor of the previous page',
    }),
  ),
};

export const HardDeleteQuery = Type.Object(
  {
    hard_delete: Type.Optional(
      Type.Boolean({ description: 'true removes the row for good; otherwise the delete is soft' }),
    ),
  },
  { additionalProperties: false },
);

/**
 * A reference to a named schema: `$ref` in the document, and for validation
 * and serialization, which resolve it when they compile; the named schema's
 * type in TypeScript.
 */
export function Ref<T extends TSchema>(schema: T) {
  const id = (schema as { $id?: unknown }).$id;
  if (typeof id !== 'string') throw new Error('Ref needs a schema with an $id');
  return Type.Unsafe<Static<T>>({ $ref: id });
}

/** A page of a list: its items and the cursor of the next page. */
export function ListResponse<K extends string, T extends TSchema>(
  key: K,
  item: T,
  options: { $id: string; examples: unknown[] },
) {
  return Type.Object(
    {
      [key]: Type.Array(Ref(item)),
      next_cursor: Type.Union([Type.String(), Type.Null()], {
        description:
          'Cursor of the next page; null on the last page. A page may end before `limit` items, when its ' +
          'items reach the byte budget for one page: a next_cursor that is not null always means more items follow.',
      }),
    } as unknown as { [P in K]: ReturnType<typeof Type.Array<T>> } & { next_cursor: TSchema },
    {
      additionalProperties: false,
      description: `One page of ${key.replace('_', ' ')}, ordered by id`,
      ...options,
    },
  );
}

/** A string enum as `{type: string, enum: [...]}`, with the literal union as its static type. */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: Record<string, unknown> = {},
) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** The response of a delete: 204 with no body. */
export const NoContent = Type.Null({ description: 'No content' });

/** If-Match on PATCH, PUT and DELETE: the write happens only if the ETag still matches (else 412). */
export const IfMatchHeaders = Type.Object({
  'if-match': Type.Optional(
    Type.String({ minLength: 1, maxLength: 1024, description: 'ETag from a previous read; * matches any' }),
  ),
});
