import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../core/errors.js';
import { type JsonLimits, jsonLimitProblem } from './json-limits.js';

/** Methods whose operations read a body; on the others an empty body is no body. */
const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * The only body parser: JSON. Other media types are 415. Keys such as
 * `__proto__` stay plain own properties with JSON.parse and are then refused
 * by the schemas like any unknown field. Bytes that are not UTF-8 are
 * refused rather than decoded as U+FFFD, which would store text the client
 * never sent. A body over the nesting or key limit is refused here, before
 * the idempotency claim, validation or anything else looks at it.
 */
export function registerJsonBodyParser(app: FastifyInstance, limits: JsonLimits): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    // A GET or DELETE sent with Content-Type: application/json and nothing else: common client default.
    if (bytes.length === 0 && !METHODS_WITH_BODY.has(request.method)) {
      done(null, undefined);
      return;
    }
    if (!isUtf8(bytes)) {
      done(new AppError('malformed_json', 'The body is not valid UTF-8'), undefined);
      return;
    }
    const text = bytes.toString('utf8');
    if (text.trim() === '') {
      done(new AppError('malformed_json', 'The body is empty but Content-Type says JSON'), undefined);
      return;
    }
    const problem = jsonLimitProblem(text, limits);
    if (problem !== undefined) {
      done(
        new AppError('validation_error', `body: ${problem}`, {
          errors: [{ location: 'body', field: '', message: problem }],
        }),
        undefined,
      );
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      done(new AppError('malformed_json', 'The body is not valid JSON'), undefined);
      return;
    }
    done(null, parsed);
  });
}
