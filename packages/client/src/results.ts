import { isObject, ProblemError } from './problem.js';

/** A resource with the ETag it was answered with: send it back as `ifMatch` to write only if unchanged. */
export interface Versioned<T> {
  data: T;
  etag: string;
}

interface Result {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/**
 * The payload of a success, bare or wrapped: rule 1 of the spec lets a
 * server answer `{"status": "success", "data": …}`, and then `data` is the
 * payload. A failure throws its ProblemError.
 */
export function payloadOf<R extends Result>(result: R): NonNullable<R['data']> {
  const { response } = result;
  if (!response.ok) {
    throw new ProblemError(response.status, result.error, response.headers.get('x-request-id') ?? undefined);
  }
  const body = result.data;
  return (isObject(body) && 'data' in body ? body.data : body) as NonNullable<R['data']>;
}

export function versioned<R extends Result>(result: R): Versioned<NonNullable<R['data']>> {
  return { data: payloadOf(result), etag: result.response.headers.get('etag') ?? '' };
}
