export const REDACTED = '[redacted]';

/**
 * Field names that hold credentials or what stands in for them (a token's hash authenticates as well
 * as the token does here, since tokens are looked up by hash). Matched on the name's end, so a new
 * `webhookSecret` or `refreshToken` is covered without anyone remembering to list it; `tokenId` is not.
 */
const SECRET_FIELD = /(?:hash|secret|password|token|apikey|privatekey)$/i;

/**
 * A copy of an event's data with every secret field replaced by `[redacted]`, however deep. The
 * audit log is read by organization admins and kept forever, so secrets never enter it.
 */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value === null || typeof value !== 'object') return value;
  // A loop rather than entries/fromEntries: every event of a rebuild comes through here.
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    copy[key] = SECRET_FIELD.test(key) ? REDACTED : redact((value as Record<string, unknown>)[key]);
  }
  return copy;
}
