/**
 * The one error type of the service. Every failure a client can see is an
 * `AppError` with a code from a closed set; the error handler turns it into
 * problem+json. The set is the codes below, which any part of the service
 * may answer, and those a module adds in its own `*.problems.ts`: it names
 * them in `ErrorCodes` (declaration merging, so that a code is checked by
 * the compiler wherever it is used) and defines their status, title and
 * example with `defineProblems`, which the module's code imports before it
 * can throw one. src/modules.ts lists every module, so every code is known
 * when the service starts.
 */
export interface ErrorCodes {
  validation_error: true;
  malformed_json: true;
  unauthenticated: true;
  forbidden: true;
  not_found: true;
  method_not_allowed: true;
  idempotency_in_progress: true;
  request_timeout: true;
  precondition_failed: true;
  payload_too_large: true;
  unsupported_media_type: true;
  range_not_satisfiable: true;
  idempotency_key_reused: true;
  rate_limited: true;
  request_headers_too_large: true;
  internal_error: true;
  service_unavailable: true;
}

export type ErrorCode = keyof ErrorCodes;

export interface FieldError {
  location: 'body' | 'query' | 'path' | 'header';
  field: string;
  message: string;
}

/** A code's HTTP status and title, and the detail of a realistic example (the OpenAPI document's). */
export interface ProblemDefinition {
  status: number;
  title: string;
  example: { detail: string; errors?: FieldError[] };
}

const definitions = new Map<ErrorCode, ProblemDefinition>();

/** Defines codes named in ErrorCodes: once each. */
export function defineProblems(problems: { [C in ErrorCode]?: ProblemDefinition }): void {
  for (const [code, definition] of Object.entries(problems) as [ErrorCode, ProblemDefinition][]) {
    if (definitions.has(code)) throw new Error(`problem code ${code} is defined twice`);
    definitions.set(code, definition);
  }
}

export function problemDefinition(code: ErrorCode): ProblemDefinition {
  const definition = definitions.get(code);
  if (!definition) throw new Error(`problem code ${code} is not defined`);
  return definition;
}

/** Every defined code, by status and then by name: the same order whatever order modules load in. */
export function definedErrorCodes(): ErrorCode[] {
  return [...definitions.keys()].sort(
    (a, b) => problemDefinition(a).status - problemDefinition(b).status || a.localeCompare(b),
  );
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors: FieldError[] | undefined;
  /** How many more problems were found than `errors` lists. */
  readonly errorsOmitted: number;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    detail: string,
    options: { errors?: FieldError[]; errorsOmitted?: number; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.name = 'AppError';
    this.code = code;
    this.status = problemDefinition(code).status;
    this.errors = options.errors;
    this.errorsOmitted = options.errorsOmitted ?? 0;
    this.headers = options.headers ?? {};
  }
}

/** A stable URI per code, as RFC 9457 asks for `type`. */
export function problemType(code: ErrorCode): string {
  return `urn:facility-admin:problem:${code}`;
}

/** Shorthand for a validation error about one field. */
export function invalidField(location: FieldError['location'], field: string, message: string): AppError {
  return new AppError('validation_error', `${field}: ${message}`, {
    errors: [{ location, field, message }],
  });
}

defineProblems({
  validation_error: {
    status: 400,
    title: 'Request is not valid',
    example: {
      detail: '/name: must not be empty; /price_amount: must be an integer',
      errors: [
        { location: 'body', field: '/name', message: 'must not be empty' },
        { location: 'body', field: '/price_amount', message: 'must be an integer' },
      ],
    },
  },
  malformed_json: {
    status: 400,
    title: 'Body is not valid JSON',
    example: { detail: 'The body is not valid JSON' },
  },
  unauthenticated: {
    status: 401,
    title: 'Authentication required',
    example: { detail: 'Send a valid API key as "Authorization: Bearer <key>"' },
  },
  forbidden: {
    status: 403,
    title: 'Not allowed',
    example: { detail: 'This API key has no access to facility 1' },
  },
  not_found: {
    status: 404,
    title: 'Not found',
    example: { detail: 'No resource at /admin/facilities/1/plan' },
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    example: { detail: 'PUT is not allowed here; allowed: GET, HEAD, POST' },
  },
  request_timeout: {
    status: 408,
    title: 'Request timed out',
    example: { detail: 'The request did not arrive in time' },
  },
  idempotency_in_progress: {
    status: 409,
    title: 'Request with this idempotency key in progress',
    example: { detail: 'A request with this Idempotency-Key is still being processed; retry shortly' },
  },
  precondition_failed: {
    status: 412,
    title: 'Precondition failed',
    example: { detail: 'If-Match does not match the current ETag: the resource changed; read it again' },
  },
  payload_too_large: {
    status: 413,
    title: 'Body too large',
    example: { detail: 'The body is larger than the configured limit (BODY_LIMIT_BYTES)' },
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported media type',
    example: { detail: 'The body must be JSON, sent with Content-Type: application/json' },
  },
  range_not_satisfiable: {
    status: 416,
    title: 'Range not satisfiable',
    example: { detail: 'The range is outside the file' },
  },
  idempotency_key_reused: {
    status: 422,
    title: 'Idempotency key reused with another body',
    example: {
      detail: 'This Idempotency-Key was used for a different request; use a new key for a new request',
    },
  },
  rate_limited: {
    status: 429,
    title: 'Too many requests',
    example: {
      detail:
        'Too many requests: at most 3000 per 60 s for each API key (each client address when authentication is off; RATE_LIMIT_PER_MINUTE per RATE_LIMIT_WINDOW_MS); retry in 17 s',
    },
  },
  request_headers_too_large: {
    status: 431,
    title: 'Request headers too large',
    example: { detail: 'The request line and headers are over 16 KB' },
  },
  internal_error: {
    status: 500,
    title: 'Internal error',
    example: { detail: 'An unexpected error occurred; it has been logged' },
  },
  service_unavailable: {
    status: 503,
    title: 'Service unavailable',
    example: { detail: 'The database is not reachable; try again shortly' },
  },
});
