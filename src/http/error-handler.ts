import type { Socket } from 'node:net';
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isConnectionLost } from '../db/errors.js';
import { AppError, ERROR_CODES, problemType } from './errors.js';
import { newRequestId } from './request-id.js';
import { requestPathOf } from './request-target.js';
import { SECURITY_HEADERS } from './response-headers.js';
import { collectRequestErrors, toFieldErrors } from './validation.js';

/**
 * The one place where a failure becomes problem+json. Known failures keep
 * their code; anything else is logged with the request id and answered as
 * 500 internal_error without internals.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error as FastifyError, request);
    if (appError.code === 'internal_error') {
      request.log.error({ err: error }, 'unexpected failure');
    } else if (appError.code === 'service_unavailable') {
      request.log.warn({ err: error }, 'database unavailable');
    }
    return sendProblem(request, reply, appError);
  });
}

export function sendProblem(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  return (
    reply
      .code(error.status)
      // Also set here: errors raised before the onRequest hooks (bad URLs) must carry it too.
      .header('x-request-id', request.id)
      .headers(error.headers)
      .type('application/problem+json')
      .send(problemBody(error, requestPathOf(request), String(request.id)))
  );
}

function problemBody(error: AppError, instance: string, requestId: string) {
  return {
    type: problemType(error.code),
    title: ERROR_CODES[error.code].title,
    status: error.status,
    detail: error.message,
    code: error.code,
    instance,
    request_id: requestId,
    ...(error.errors ? { errors: error.errors } : {}),
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
      `HTTP/1.1 ${appError.status} ${ERROR_CODES[appError.code].title}\r\n${head.join('')}\r\n${body}`,
    );
  }
  socket.destroy(error);
}

const FASTIFY_CODES: Record<string, (error: FastifyError) => AppError> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new AppError('unsupported_media_type', 'The body must be JSON, sent with Content-Type: application/json'),
  FST_ERR_CTP_BODY_TOO_LARGE: () =>
    new AppError('payload_too_large', 'The body is larger than the configured limit'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () =>
    new AppError('malformed_json', 'The body is empty but Content-Type says JSON'),
  FST_ERR_CTP_INVALID_JSON_BODY: () => new AppError('malformed_json', 'The body is not valid JSON'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    new AppError('malformed_json', 'Content-Length does not match the body'),
  FST_ERR_BAD_URL: () =>
    new AppError('validation_error', 'The URL is not valid percent-encoding', {
      errors: [{ location: 'path', field: '', message: 'is not valid percent-encoding' }],
    }),
};

export function toAppError(error: FastifyError, request?: FastifyRequest): AppError {
  if (error instanceof AppError) return error;
  if (error.validation) {
    const found = toFieldErrors(error.validation as never, error.validationContext);
    const all = request ? collectRequestErrors(request) : [];
    const errors = all.length >= found.length ? all : found;
    const summary = errors.map((e) => `${e.field || e.location}: ${e.message}`).join('; ');
    return new AppError('validation_error', summary, { errors });
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
  if (error.statusCode === 400) return new AppError('validation_error', 'The request is not valid');
  return new AppError('internal_error', 'An unexpected error occurred; it has been logged');
}
