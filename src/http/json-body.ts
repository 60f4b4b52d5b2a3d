import type { FastifyInstance } from 'fastify';
import { AppError } from './errors.js';

/**
 * The only body parser: JSON. Other media types are 415. Keys such as
 * `__proto__` stay plain own properties with JSON.parse and are then refused
 * by the schemas like any unknown field.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.trim() === '') {
      done(new AppError('malformed_json', 'The body is empty but Content-Type says JSON'), undefined);
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
