import { createHmac, hash, randomBytes, randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Random bytes for ids, drawn from the system's CSPRNG a few KiB at a time: one draw per id cost a
 * tenth of a comment's work on the serving thread. Each byte is used once. Secrets (tokens, keys)
 * draw their own bytes.
 */
const pool = Buffer.alloc(4096);
let used = pool.length;

function randomByte(): number {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  return pool[used++];
}

/** A random 20-character base62 id (about 119 bits), the shape of GitBook's ids. */
export function newId(length = 20): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    // Rejection sampling keeps every character equally likely.
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

/** A secret API token: 256 random bits, with a prefix that makes leaked tokens easy to scan for. */
export function newSecretToken(prefix = 'gb_api_'): string {
  return prefix + randomBytes(32).toString('base64url');
}

/**
 * A secret derived from the server's signing key for `label` (256 bits, 43 base64url characters):
 * shown on every read yet never stored, the same on every process that holds the signing key.
 */
export function derivedSecret(signingKey: string, label: string): string {
  return createHmac('sha256', signingKey).update(label).digest('base64url');
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
