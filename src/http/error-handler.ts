import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isConnectionLost } from '../db/errors.js';
import { AppError, ERROR_CODES, problemType } from './errors.js';
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
  const body = {
    type: problemType(error.code),
    title: ERROR_CODES[error.code].title,
    status: error.status,
    detail: error.message,
    code: error.code,
    instance: request.url.split('?')[0],
    request_id: String(request.id),
    ...(error.errors ? { errors: error.errors } : {}),
  };
  return (
    reply
      .code(error.status)
      // Also set here: errors raised before the onRequest hooks (bad URLs) must carry it too.
      .header('x-request-id', request.id)
      .headers(error.headers)
      .type('application/problem+json')
      .send(body)
  );
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
