import { createHmac, randomBytes } from 'node:crypto';

/** A new signing secret, in the Standard Webhooks form: `whsec_` and 24 random bytes in base64. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * The `webhook-signature` header of the Standard Webhooks specification:
 * `v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`
 * under the secret's bytes, one per secret, separated by spaces (while a
 * rotated secret is still valid, both sign). Node's own crypto signs: the
 * tests verify with the `standardwebhooks` package, an independent receiver.
 */
export function signatureHeader(
  secrets: string[],
  messageId: string,
  timestamp: number,
  body: string,
): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      const mac = createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64');
      return `v1,${mac}`;
    })
    .join(' ');
}
