import { type Static, type TSchema, Type } from 'typebox';
import { ERROR_CODES } from '../core/errors.js';

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

export function ListResponse<K extends string, T extends TSchema>(key: K, item: T) {
  return Type.Object({
    [key]: Type.Array(item),
    next_cursor: Type.Union([Type.String(), Type.Null()], {
      description:
        'Cursor of the next page; null on the last page. A page may end before `limit` items, when its ' +
        'items reach the byte budget for one page: a next_cursor that is not null always means more items follow.',
    }),
  } as { [P in K]: ReturnType<typeof Type.Array<T>> } & { next_cursor: TSchema });
}

export const Problem = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String(),
    instance: Type.String(),
    request_id: Type.String(),
    errors: Type.Optional(
      Type.Array(
        Type.Object({
          location: StringEnum(['body', 'query', 'path', 'header'] as const),
          field: Type.String(),
          message: Type.String(),
        }),
      ),
    ),
    errors_omitted: Type.Optional(
      Type.Integer({
        minimum: 1,
        description:
          'How many more problems were found than `errors` lists (it lists at most 100 by default)',
      }),
    ),
  },
  { $id: 'Problem', description: 'RFC 9457 problem details' },
);

const header = (description: string) => ({ type: 'string', description });

const REQUEST_ID_HEADER = {
  'x-request-id': header("The client's X-Request-Id when valid, else a generated id"),
};

const PROBLEM_HEADERS: Record<string, Record<string, ReturnType<typeof header>>> = {
  401: { 'www-authenticate': header('Bearer realm="facility-admin"') },
  429: {
    'retry-after': header('Seconds until a request is allowed again'),
    'ratelimit-limit': header('Requests allowed per window'),
    'ratelimit-remaining': header('Requests left in this window'),
    'ratelimit-reset': header('Seconds until the window resets'),
    'ratelimit-policy': header('The limit and its window, e.g. 3000;w=60'),
  },
  '5XX': { 'retry-after': header('With 503 service_unavailable: seconds to wait before retrying') },
};

/** A single resource's response: it carries the ETag that If-Match is checked against. */
export function Resource<T extends TSchema>(schema: T, options: { created?: boolean } = {}) {
  const headers: Record<string, ReturnType<typeof header>> = {
    ...REQUEST_ID_HEADER,
    etag: header('Strong ETag of this representation; send it as If-Match to write only if unchanged'),
  };
  if (options.created) {
    headers.location = header('URL of the created resource');
    headers['idempotent-replayed'] = header(
      '"true" when this is the stored answer to a retried Idempotency-Key',
    );
  }
  return Type.Unsafe<Static<T>>({ ...schema, headers });
}

const problemContent = {
  'application/problem+json': { schema: Type.Ref('Problem') },
};

/** Each status's description lists the codes it can carry (from the one closed set). */
const PROBLEM_DESCRIPTIONS: Record<number, string> = Object.fromEntries(
  [400, 401, 403, 404, 409, 412, 413, 415, 422, 429].map((status) => [
    status,
    `${status} problem; code is one of: ${Object.entries(ERROR_CODES)
      .filter(([, { status: codeStatus }]) => codeStatus === status)
      .map(([code]) => code)
      .join(', ')}`,
  ]),
);

/** Problem responses for the given statuses, in the form OpenAPI and the serializer share. */
export function problemResponses(...statuses: number[]) {
  const responses: Record<string, { description: string; content: typeof problemContent; headers?: object }> =
    {};
  for (const status of [400, 401, 403, ...statuses, 429]) {
    responses[status] = {
      description: PROBLEM_DESCRIPTIONS[status] ?? 'Problem',
      content: problemContent,
      headers: { ...REQUEST_ID_HEADER, ...PROBLEM_HEADERS[status] },
    };
  }
  responses['5XX'] = {
    description: 'internal_error or service_unavailable',
    content: problemContent,
    headers: { ...REQUEST_ID_HEADER, ...PROBLEM_HEADERS['5XX'] },
  };
  return responses;
}

/** The statuses a route with a JSON body can answer besides its own. */
export const BODY_PROBLEMS = [413, 415] as const;

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
