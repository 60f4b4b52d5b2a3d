import type { FastifyRequest } from 'fastify';

/**
 * A preValidation hook that trims the named text fields of a JSON body, so
 * that the schema's length rules count the trimmed text ("  Gold  " is 4
 * characters) and every problem is still reported in one answer.
 */
export function trimBodyFields(...fields: string[]) {
  return async (request: FastifyRequest): Promise<void> => {
    const body = request.body as Record<string, unknown> | null;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
    for (const field of fields) {
      const value = body[field];
      if (typeof value === 'string') body[field] = value.trim();
    }
  };
}
