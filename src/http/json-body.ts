import type { FastifyInstance } from 'fastify';
import { AppError, type FieldError } from './errors.js';

/**
 * The only body parser: JSON. Other media types are 415. Keys such as
 * `__proto__` stay plain own properties with JSON.parse and are then refused
 * by the schemas like any unknown field. Text holding U+0000 is refused here,
 * because PostgreSQL cannot store it.
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
    const errors = text.includes('\\u0000') ? nulCharacterErrors(parsed, '') : [];
    if (errors.length > 0) {
      const detail = errors.map((e) => `${e.field}: ${e.message}`).join('; ');
      done(new AppError('validation_error', detail, { errors }), undefined);
      return;
    }
    done(null, parsed);
  });
}

/** Every string (value or key) holding U+0000, as body field errors. */
function nulCharacterErrors(value: unknown, pointer: string): FieldError[] {
  const problem = (field: string): FieldError => ({
    location: 'body',
    field,
    message: 'must not contain the NUL character',
  });
  if (typeof value === 'string') return value.includes('\u0000') ? [problem(pointer)] : [];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) => {
    const at = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    return key.includes('\u0000') ? [problem(at)] : nulCharacterErrors(item, at);
  });
}
