import { type Static, type TSchema, Type } from 'typebox';
import { definedErrorCodes, type ErrorCode, problemDefinition } from '../../core/errors.js';
import { problemExample } from './problem-examples.js';
import { Ref, StringEnum } from './schemas.js';

/**
 * The responses of the operations, as their schemas declare them: a single
 * resource with its headers, and the problems each operation can answer,
 * with their codes and examples. Fastify serializes by them and the OpenAPI
 * document shows them.
 */

const problemFields = {
  type: Type.String({ description: 'A stable URN per code: urn:facility-admin:problem:<code>' }),
  title: Type.String({ description: 'Fixed per code' }),
  status: Type.Integer({ description: 'The HTTP status' }),
  detail: Type.String({ description: 'For people; its wording may change' }),
  instance: Type.String({ description: 'The path of the request' }),
  request_id: Type.String({ description: 'Equals the X-Request-Id response header; quote it in reports' }),
};

const codesOf = (select: (status: number) => boolean) =>
  definedErrorCodes().filter((code) => select(problemDefinition(code).status));

export const FieldError = Type.Object(
  {
    location: StringEnum(['body', 'query', 'path', 'header'] as const),
    field: Type.String({ description: 'A JSON pointer in the body; a parameter or header name otherwise' }),
    message: Type.String(),
  },
  { $id: 'FieldError', description: 'One problem with one field of the request' },
);

/**
 * The problem documents' schemas, with the closed set of codes: made once
 * every module has defined its codes (src/modules.ts calls this when it
 * lists the named schemas); operations refer to them by `$id`.
 */
export function problemSchemas() {
  const Problem = Type.Object(
    {
      ...problemFields,
      code: StringEnum(
        codesOf((status) => status !== 400),
        { description: 'What went wrong; branch on it' },
      ),
    },
    {
      $id: 'Problem',
      description: 'RFC 9457 problem details, for every error but 400 (see ValidationProblem)',
      examples: [problemExample('not_found')],
    },
  );
  const ValidationProblem = Type.Object(
    {
      ...problemFields,
      code: StringEnum(
        codesOf((status) => status === 400),
        { description: 'What went wrong; branch on it' },
      ),
      errors: Type.Optional(
        Type.Array(Ref(FieldError), {
          description: 'Every problem found, with validation_error (none with malformed_json)',
        }),
      ),
      errors_omitted: Type.Optional(
        Type.Integer({
          minimum: 1,
          description:
            'How many more problems were found than `errors` lists (it lists at most 100 by default)',
        }),
      ),
    },
    {
      $id: 'ValidationProblem',
      description: 'The problem of a 400 answer: the request is not valid, or its body is not JSON',
      examples: [problemExample('validation_error')],
    },
  );
  return [Problem, ValidationProblem, FieldError];
}

/** A reference to a problem document's schema, by its `$id`. */
export const problemRef = (status: string) => ({ $ref: status === '400' ? 'ValidationProblem' : 'Problem' });

const header = (description: string) => ({ type: 'string', description });

const REQUEST_ID_HEADER = {
  'x-request-id': header("The client's X-Request-Id when valid, else a generated id"),
};

const PROBLEM_HEADERS: Record<string, Record<string, ReturnType<typeof header>>> = {
  401: { 'www-authenticate': header('Bearer realm="facility-admin"') },
  409: { 'retry-after': header('With idempotency_in_progress: seconds to wait before retrying') },
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
export function Resource<T extends TSchema>(schema: T, options: { description: string; created?: boolean }) {
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
  return Type.Unsafe<Static<T>>({ ...Ref(schema), description: options.description, headers });
}

/** What every operation of the API can answer besides its own problems. */
const COMMON_PROBLEMS: readonly ErrorCode[] = [
  'validation_error',
  'unauthenticated',
  'forbidden',
  'rate_limited',
  'internal_error',
  'service_unavailable',
];

/** What an operation with a JSON body can answer besides its own problems. */
export const BODY_PROBLEMS = ['malformed_json', 'payload_too_large', 'unsupported_media_type'] as const;
/** What a create (a POST with Idempotency-Key) can answer. */
export const IDEMPOTENCY_PROBLEMS = ['idempotency_in_progress', 'idempotency_key_reused'] as const;

/**
 * The problem responses of an operation: the common ones and the codes it
 * names, by status, each status with every code it can carry, an example
 * per code and its headers, in the form OpenAPI and the serializer share.
 */
export function problemResponses(...codes: ErrorCode[]) {
  const byStatus = new Map<string, ErrorCode[]>();
  for (const code of [...COMMON_PROBLEMS, ...codes]) {
    const status = problemDefinition(code).status;
    const key = status >= 500 ? '5XX' : String(status);
    byStatus.set(key, [...(byStatus.get(key) ?? []), code]);
  }
  const responses: Record<string, object> = {};
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a.localeCompare(b))) {
    const listed = statusCodes.map((code) => `\`${code}\``).join(', ');
    responses[status] = {
      description: `Problem; \`code\` is ${statusCodes.length === 1 ? listed : `one of ${listed}`}`,
      content: {
        'application/problem+json': {
          schema: problemRef(status),
          examples: Object.fromEntries(
            statusCodes.map((code) => [
              code,
              { summary: problemDefinition(code).title, value: problemExample(code) },
            ]),
          ),
        },
      },
      headers: {
        ...REQUEST_ID_HEADER,
        ...(status !== '409' || statusCodes.includes('idempotency_in_progress')
          ? PROBLEM_HEADERS[status]
          : {}),
      },
    };
  }
  return responses;
}

/**
 * What any request can be answered before it reaches an operation (Node's
 * HTTP parser refuses it, and the connection is closed after the answer):
 * for the operations that have no problem of their own to document.
 */
export function problemResponsesBeforeRouting() {
  const { 408: timeout, 431: headers } = problemResponses('request_timeout', 'request_headers_too_large');
  return { 408: timeout, 431: headers };
}
