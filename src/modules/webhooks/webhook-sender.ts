import http from 'node:http';
import https from 'node:https';
import { isIP, type Socket } from 'node:net';
import { isPublicAddress, NOT_PUBLIC_CODE, publicOnlyLookup } from './safe-address.js';

export interface SendSettings {
  timeoutMs: number;
  maxResponseBytes: number;
  allowPrivate: boolean;
}

export interface SendResult {
  /** The answer's status; undefined when there was none. */
  status?: number;
  /** One of DELIVERY_ERRORS, or `answered <status>` (…`; redirects are not followed` for a 3xx). */
  error?: string;
}

/**
 * Why an attempt failed, as a delivery's `last_error` says it: a closed set
 * of plain messages that tell an admin what to fix, never the network's
 * details (docs/webhooks.md, "Why a delivery failed"). Until the receiver
 * has shown itself to be one (the TCP connection made for http, the TLS
 * handshake done for https), every failure is `could not connect`, so that a
 * closed port, a filtered one and one where something else listens read the
 * same; the one exception is a certificate the service does not accept.
 */
export const DELIVERY_ERRORS = {
  notPublic: 'not a public address',
  couldNotConnect: 'could not connect',
  certificate: 'certificate not accepted',
  timedOut: 'timed out',
  noValidAnswer: 'no valid answer',
} as const;

/** OpenSSL's verification failures (X509_V_ERR_*, as Node names them) and Node's name check. */
const CERTIFICATE_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_REJECTED',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_CHAIN_TOO_LONG',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'ERROR_IN_CERT_NOT_BEFORE_FIELD',
  'ERROR_IN_CERT_NOT_AFTER_FIELD',
  'INVALID_CA',
  'INVALID_PURPOSE',
  'PATH_LENGTH_EXCEEDED',
  'HOSTNAME_MISMATCH',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

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
    return Promise.resolve({ error: DELIVERY_ERRORS.notPublic });
  }
  const secure = target.protocol === 'https:';
  return new Promise((resolve) => {
    let done = false;
    /** The receiver has shown itself: the connection made (http) or the TLS handshake done (https). */
    let reached = false;
    const finish = (result: SendResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      request.destroy();
      resolve(result);
    };
    const client = secure ? https : http;
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
    request.on('socket', (socket: Socket) => {
      socket.once(secure ? 'secureConnect' : 'connect', () => {
        reached = true;
      });
    });
    const timer = setTimeout(
      () => finish({ error: reached ? DELIVERY_ERRORS.timedOut : DELIVERY_ERRORS.couldNotConnect }),
      settings.timeoutMs,
    );
    request.on('error', (error: NodeJS.ErrnoException) => finish({ error: failureOf(error, reached) }));
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

/** The message of a request that failed before any answer came. */
export function failureOf(error: NodeJS.ErrnoException, reached: boolean): string {
  if (error.code === NOT_PUBLIC_CODE) return DELIVERY_ERRORS.notPublic;
  if (reached) return DELIVERY_ERRORS.noValidAnswer;
  if (error.code !== undefined && CERTIFICATE_CODES.has(error.code)) return DELIVERY_ERRORS.certificate;
  return DELIVERY_ERRORS.couldNotConnect;
}
