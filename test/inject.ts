/**
 * The one adapter from the app's in-process requests (app.inject) to what a
 * test reads: status, headers, the body parsed when it is JSON, and its text.
 */
import type { App } from '../src/app.js';

export interface TestResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
  body: any;
  text: string;
}

export interface RawRequest {
  method?: string;
  url: string;
  /** Exactly these headers: nothing is added (no Content-Type for a payload). */
  headers?: Record<string, string>;
  payload?: string | Buffer;
  /** The client address the app sees (the failed-authentication limit counts per address). */
  remoteAddress?: string;
}

/** Sends one request exactly as given. */
export async function inject(app: App, request: RawRequest): Promise<TestResponse> {
  const response = await app.inject({
    method: (request.method ?? 'GET') as 'GET',
    url: request.url,
    headers: request.headers ?? {},
    ...(request.payload !== undefined ? { payload: request.payload } : {}),
    ...(request.remoteAddress !== undefined ? { remoteAddress: request.remoteAddress } : {}),
  });
  let body: unknown;
  try {
    body = response.body === '' ? undefined : JSON.parse(response.body);
  } catch {
    body = undefined;
  }
  return { status: response.statusCode, headers: response.headers, body, text: response.body };
}

/** A request with a JSON body (a string is sent as it is), the content type set unless the headers give one. */
export function injectJson(
  app: App,
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<TestResponse> {
  if (body === undefined) return inject(app, { method, url, headers });
  return inject(app, {
    method,
    url,
    headers: { 'content-type': 'application/json', ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
