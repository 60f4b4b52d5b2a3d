import { createHash } from 'node:crypto';

/**
 * A credential's value as stored: SHA-256 of the value exactly as presented
 * (a card reader and a person typing send the same characters), and its
 * last four characters for people to recognise it.
 */
export function hashCredentialValue(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

export function lastFourOf(value: string): string {
  return value.slice(-4);
}
