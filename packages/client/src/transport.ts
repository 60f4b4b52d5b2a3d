/**
 * The fetch the client sends every request through: it gives each POST an
 * Idempotency-Key, so that a retried create is answered from the first one,
 * and retries what is safe to retry with exponential backoff and jitter.
 */

export interface RetryOptions {
  /** Retries after the first attempt; 0 turns retrying off. Default 3. */
  max?: number;
  /** The first backoff; each retry doubles it, and a random part of it is waited (full jitter). Default 200 ms. */
  baseDelayMs?: number;
  /** The longest wait. A Retry-After longer than this is not waited for: the answer is returned. Default 10 s. */
  maxDelayMs?: number;
  /** How the client waits before a retry, in milliseconds; a timer unless given (a test records the waits). */
  wait?: (ms: number) => Promise<void>;
}

export type Fetch = (request: Request) => Promise<Response>;

const RETRIED_STATUSES = new Set([429, 503]);

export function retryingFetch(fetchOnce: Fetch, options: RetryOptions = {}): Fetch {
  const max = options.max ?? 3;
  const baseDelayMs = options.baseDelayMs ?? 200;
  const maxDelayMs = options.maxDelayMs ?? 10_000;
  const sleep = options.wait ?? timer;
  return async (request) => {
    if (request.method === 'POST' && !request.headers.has('idempotency-key')) {
      request.headers.set('idempotency-key', crypto.randomUUID());
    }
    for (let attempt = 0; ; attempt++) {
      const backoff = Math.random() * Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
      let response: Response;
      try {
        response = await fetchOnce(request.clone());
      } catch (error) {
        // A network failure: the request may or may not have reached the service, which the key makes safe.
        if (attempt >= max || isAbort(error)) throw error;
        await sleep(backoff);
        continue;
      }
      if (attempt >= max || !(await isRetried(response))) return response;
      const retryAfter = retryAfterMs(response.headers.get('retry-after'));
      if (retryAfter !== undefined && retryAfter > maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(Math.max(retryAfter ?? 0, backoff));
    }
  };
}

/** 429 and 503, and a create whose first attempt with the same key is still running. */
async function isRetried(response: Response): Promise<boolean> {
  if (RETRIED_STATUSES.has(response.status)) return true;
  if (response.status !== 409) return false;
  const body = await response
    .clone()
    .json()
    .catch(() => undefined);
  return (body as { code?: unknown } | undefined)?.code === 'idempotency_in_progress';
}

/** Retry-After as seconds or as an HTTP date, in milliseconds. */
function retryAfterMs(header: string | null): number | undefined {
  if (header === null) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

function timer(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
