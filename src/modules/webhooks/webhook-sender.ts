import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { isPublicAddress, publicOnlyLookup } from './safe-address.js';

export interface SendSettings {
  timeoutMs: number;
  maxResponseBytes: number;
  allowPrivate: boolean;
}

export interface SendResult {
  /** The answer's status; undefined when there was none. */
  status?: number;
  error?: string;
}

/**
 * POSTs one message. Redirects are not followed (a 3xx is a failure), the
 * answer's body is read up to `maxResponseBytes` and no further, and the
 * whole exchange must end within `timeoutMs`.
 */
export function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  settings: SendSettings,
): Promise<SendResult> {
  const target = new URL(url);
  // An address written in the URL is connected to without a lookup: it is checked here.
  const literal = target.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) && !settings.allowPrivate && !isPublicAddress(literal)) {
    return Promise.resolve({ error: `${literal} is not a public address` });
  }
  return new Promise((resolve) => {
    let done = false;
    const finish = (result: SendResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      request.destroy();
      resolve(result);
    };
    const client = target.protocol === 'https:' ? https : http;
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'facility-admin-webhooks/1',
        },
        lookup: publicOnlyLookup(settings.allowPrivate),
        agent: false,
      },
      (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= settings.maxResponseBytes) finish(outcomeOf(response.statusCode));
        });
        response.on('end', () => finish(outcomeOf(response.statusCode)));
        response.on('error', () => finish(outcomeOf(response.statusCode)));
      },
    );
    const timer = setTimeout(
      () => finish({ error: `no answer within ${settings.timeoutMs} ms` }),
      settings.timeoutMs,
    );
    request.on('error', (error: NodeJS.ErrnoException) => finish({ error: describe(error) }));
    request.end(body);
  });
}

function outcomeOf(status: number | undefined): SendResult {
  if (status !== undefined && status >= 200 && status < 300) return { status };
  if (status !== undefined && status >= 300 && status < 400) {
    return { status, error: `answered ${status}; redirects are not followed` };
  }
  return { status, error: `answered ${status}` };
}

function describe(error: NodeJS.ErrnoException): string {
  if (error.code === 'EADDRNOTPUBLIC') return error.message;
  return `${error.code ?? 'error'}: ${error.message}`.slice(0, 500);
}
