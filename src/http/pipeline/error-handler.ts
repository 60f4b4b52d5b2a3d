import type { Socket } from 'node:net';
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, problemDefinition, problemType } from '../../core/errors.js';
import { isConnectionLost } from '../../db/errors.js';
import { newRequestId } from './request-id.js';
import { requestPathOf } from './request-target.js';
import { SECURITY_HEADERS } from './response-headers.js';
import { collectRequestErrors, toFieldErrors } from './validation.js';

/**
 * The one place where a failure becomes problem+json. Known failures keep
 * their code; anything else is logged with the request id and answered as
 * 500 internal_error without internals.
 */
export function registerErrorHandler(app: FastifyInstance, limits: { maxErrors: number }): void {
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error as FastifyError, request, limits.maxErrors);
    logFailure(request, error, appError);
    return sendProblem(request, reply, appError);
  });
}

/** Fastify's frameworkErrors (a bad URL, an over-long path parameter): answered, and logged like any error. */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const appError = toAppError(error);
  logFailure(request, error, appError);
  return sendProblem(request, reply, appError);
}

function logFailure(request: FastifyRequest, error: unknown, appError: AppError): void {
  if (appError.code === 'internal_error') {
    request.log.error({ err: error }, 'unexpected failure');
  } else if (appError.code === 'service_unavailable') {
    request.log.warn({ err: error }, 'database unavailable');
  }
}

export function sendProblem(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  return (
    reply
      .code(error.status)
      // Also set here: errors raised before the onRequest hooks (bad URLs) must carry them too, and a
      // problem is an API answer whatever scope raised it (a docs file that is not there).
      .header('x-request-id', request.id)
      .headers(SECURITY_HEADERS)
      .headers(error.headers)
      .type('application/problem+json')
      .send(problemBody(error, requestPathOf(request), String(request.id)))
  );
}

function problemBody(error: AppError, instance: string, requestId: string) {
  return {
    type: problemType(error.code),
    title: problemDefinition(error.code).title,
    status: error.status,
    detail: error.message,
    code: error.code,
    instance,
    request_id: requestId,
    ...(error.errors ? { errors: error.errors } : {}),
    ...(error.errorsOmitted > 0 ? { errors_omitted: error.errorsOmitted } : {}),
  };
}

/**
 * Requests that Node's HTTP parser refuses (an unknown method, headers over
 * 16 KB, a request that did not arrive in time) never reach Fastify. Fastify's
 * clientErrorHandler answers them here, in the same problem+json with its own
 * request id and the security headers, and closes the connection, as
 * Fastify's default handler does.
 */
export function answerClientError(error: ConnectionError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const appError =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new AppError('request_headers_too_large', 'The request line and headers are over 16 KB')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new AppError('request_timeout', 'The request did not arrive in time')
        : new AppError('validation_error', 'The request is not valid HTTP/1.1');
  // The request target, when the request line could be read.
  // Node passes the bytes it could not parse as a Buffer (Fastify's type says otherwise).
  const packet: unknown = error.rawPacket;
  const requestLine = Buffer.isBuffer(packet) ? packet.toString('latin1') : '';
  const target = /^[!-~]+ (\/[^ ?]*)/.exec(requestLine)?.[1] ?? '/';
  const requestId = newRequestId();
  const body = JSON.stringify(problemBody(appError, target, requestId));
  const headers = {
    'content-type': 'application/problem+json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'x-request-id': requestId,
    ...SECURITY_HEADERS,
    connection: 'close',
  };
  if (socket.writable && socket.bytesWritten === 0) {
    const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.write(
      `HTTP/1.1 ${appError.status} ${problemDefinition(appError.code).title}\r\n${head.join('')}\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** The router's limit on one path parameter; no valid parameter comes near it. */
export const MAX_PARAM_LENGTH = 1000;

const FASTIFY_CODES: Record<string, (error: FastifyError) => AppError> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new AppError('unsupported_media_type', 'The body must be JSON, sent with Content-Type: application/json'),
  FST_ERR_CTP_BODY_TOO_LARGE: () =>
    new AppError('payload_too_large', 'The body is larger than the configured limit (BODY_LIMIT_BYTES)'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () =>
    new AppError('malformed_json', 'The body is empty but Content-Type says JSON'),
  FST_ERR_CTP_INVALID_JSON_BODY: () => new AppError('malformed_json', 'The body is not valid JSON'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    new AppError('malformed_json', 'Content-Length does not match the body'),
  FST_ERR_BAD_URL: () =>
    new AppError('validation_error', 'The URL is not valid percent-encoding', {
      errors: [{ location: 'path', field: '', message: 'is not valid percent-encoding' }],
    }),
  FST_ERR_MAX_PARAM_LENGTH: () =>
    new AppError('validation_error', `A path segment is over ${MAX_PARAM_LENGTH} characters`, {
      errors: [{ location: 'path', field: '', message: `has a segment over ${MAX_PARAM_LENGTH} characters` }],
    }),
  // The docs' static files: a path @fastify/static will not serve (a NUL, "//", a name too long) names no file.
  FST_STATIC_FORBIDDEN_PATH: () => new AppError('not_found', 'No file at this path'),
  FST_ERR_NOT_FOUND: () => new AppError('not_found', 'No resource at this path'),
};

/**
 * Client errors of plugins that carry only an HTTP status (@fastify/send's
 * http-errors for the docs' static files: a failed If-Match, a range past the
 * end), by that status. Any other 4xx becomes 400.
 */
const CLIENT_ERROR_STATUSES: Record<number, (error: FastifyError & { headers?: Headers }) => AppError> = {
  // @fastify/send refuses paths such as "/../" with 403: no file is there to be refused.
  403: () => new AppError('not_found', 'No file at this path'),
  404: () => new AppError('not_found', 'No resource at this path'),
  412: () => new AppError('precondition_failed', 'A precondition of the request does not hold'),
  416: (error) =>
    new AppError('range_not_satisfiable', 'The range is outside the file', {
      headers: contentRangeOf(error),
    }),
};

type Headers = Record<string, string | undefined>;

function contentRangeOf(error: { headers?: Headers }): Record<string, string> {
  const range = error.headers?.['Content-Range'];
  return range === undefined ? {} : { 'content-range': range };
}

/** A service's own field problems, listed up to the same limit as the schema's. */
function withErrorsUpTo(error: AppError, maxErrors: number): AppError {
  if (error.errors === undefined || error.errors.length <= maxErrors) return error;
  return new AppError(error.code, error.message, {
    errors: error.errors.slice(0, maxErrors),
    errorsOmitted: error.errorsOmitted + error.errors.length - maxErrors,
    headers: error.headers,
  });
}

export function toAppError(error: FastifyError, request?: FastifyRequest, maxErrors = Infinity): AppError {
  if (error instanceof AppError) return withErrorsUpTo(error, maxErrors);
  if (error.validation) {
    const found = toFieldErrors(error.validation as never, error.validationContext);
    const all = request ? collectRequestErrors(request) : [];
    const every = all.length >= found.length ? all : found;
    const errors = every.slice(0, maxErrors);
    const omitted = every.length - errors.length;
    const summary = errors.map((e) => `${e.field || e.location}: ${e.message}`).join('; ');
    const detail = omitted > 0 ? `${summary}; and ${omitted} more problems` : summary;
    return new AppError('validation_error', detail, { errors, errorsOmitted: omitted });
  }
  const known = error.code ? FASTIFY_CODES[error.code] : undefined;
  if (known) return known(error);
  if (error instanceof SyntaxError && error.statusCode === 400) {
    return new AppError('malformed_json', 'The body is not valid JSON');
  }
  if (isConnectionLost(error)) {
    return new AppError('service_unavailable', 'The database is not reachable; try again shortly', {
      headers: { 'retry-after': '1' },
    });
  }
  const status = error.statusCode ?? 0;
  const byStatus = CLIENT_ERROR_STATUSES[status];
  if (byStatus) return byStatus(error);
  // Any other client error a plugin raises is still the client's, never a 500.
  if (status >= 400 && status < 500) return new AppError('validation_error', 'The request is not valid');
  return new AppError('internal_error', 'An unexpected error occurred; it has been logged');
}
