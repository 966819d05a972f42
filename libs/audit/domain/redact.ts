export const REDACTED = '[redacted]';

/**
 * Field names that hold credentials or what stands in for them (a token's hash authenticates as well
 * as the token does here, since tokens are looked up by hash). Matched on the name's end, so a new
 * `webhookSecret` or `refreshToken` is covered without anyone remembering to list it; `tokenId` is not.
 */
const SECRET_FIELD = /(?:hash|secret|password|token|apikey|privatekey)$/i;

/**
 * An event's data with every secret field replaced by `[redacted]`, however deep: a copy of each
 * object or array that holds one, the value itself where nothing is secret (most events, and every
 * event of a rebuild comes through here). The audit log is read by organization admins and kept
 * forever, so secrets never enter it.
 */
export function redact(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const items = value.map(redact);
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  let copy: Record<string, unknown> | undefined;
  // An indexed loop: `keys.entries()` made an iterator and a pair per field, for every event of a rebuild.
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const next = SECRET_FIELD.test(key) ? REDACTED : redact(record[key]);
    // At the first change, a copy of what came before it; from then on, every field.
    if (!copy && next !== record[key]) copy = Object.fromEntries(keys.slice(0, i).map((k) => [k, record[k]]));
    if (copy) copy[key] = next;
  }
  return copy ?? value;
}
