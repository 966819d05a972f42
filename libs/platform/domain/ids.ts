import { hash, randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A random 20-character base62 id (about 119 bits), the shape of GitBook's ids. */
export function newId(length = 20): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; out.length < length && i < bytes.length; i++) {
    // Rejection sampling keeps every character equally likely.
    if (bytes[i] < 248) out += ALPHABET[bytes[i] % 62];
  }
  return out.length === length ? out : newId(length);
}

/** A secret API token: 256 random bits, with a prefix that makes leaked tokens easy to scan for. */
export function newSecretToken(prefix = 'gb_api_'): string {
  return prefix + randomBytes(32).toString('base64url');
}

/**
 * Tokens are high-entropy secrets, so a fast unsalted hash is enough to store them safely. Run on every
 * request (rate limiting, authentication): the one-shot `hash` costs a third of a Hash object's.
 */
export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

/** Ids of path parameters: what newId produces, and what clients may have from GitBook. */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
