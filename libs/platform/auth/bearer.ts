import { hashSecret } from '../domain/ids';

type Headers = Record<string, string | string[] | undefined>;

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Per request, keyed by its headers object: the hash of its bearer token, or null for none. */
const hashes = new WeakMap<Headers, string | null>();

/** The token of a well-formed `Authorization: Bearer <token>` header. */
export function bearerToken(headers: Headers): string | undefined {
  const header = headers.authorization;
  return typeof header === 'string' ? BEARER.exec(header)?.[1] : undefined;
}

/**
 * The hash the `tokens` view is keyed by, of the request's bearer token; null without a well-formed
 * one. Computed once per request: the rate limiter, the response cache and the guard all need it.
 */
export function bearerHash(headers: Headers): string | null {
  let hash = hashes.get(headers);
  if (hash === undefined) {
    const token = bearerToken(headers);
    hash = token === undefined ? null : hashSecret(token);
    hashes.set(headers, hash);
  }
  return hash;
}
