import { createHash } from 'node:crypto';

/** A JSON value as stored: no undefined inside arrays, finite numbers only. */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue | undefined;
}

/**
 * The address of an immutable object: sha256 of its canonical JSON, base64url, cut to 22 characters
 * (132 bits: no collision to fear among the objects of any number of spaces).
 */
export type Hash = string;
export const HASH_LENGTH = 22;

/**
 * JSON with the keys of every object sorted and no whitespace, so that equal values have one text and
 * so one hash. Keys whose value is undefined are left out, as `JSON.stringify` does.
 */
export function canonicalJson(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`cannot store the number ${value}`);
      return JSON.stringify(value);
    case 'object': {
      if (value === null) return 'null';
      // Concatenation rather than map/join: this runs for every object a change writes.
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) out += (i > 0 ? ',' : '') + canonicalJson(value[i] ?? null);
        return `${out}]`;
      }
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record);
      if (keys.length > 1) keys.sort();
      let out = '{';
      for (const key of keys) {
        const field = record[key];
        if (field === undefined) continue;
        out += `${out.length > 1 ? ',' : ''}${JSON.stringify(key)}:${canonicalJson(field)}`;
      }
      return `${out}}`;
    }
    default:
      throw new TypeError(`cannot store a value of type ${typeof value}`);
  }
}

export const hashOfJson = (json: string): Hash =>
  createHash('sha256').update(json).digest('base64url').slice(0, HASH_LENGTH);

export const hashOf = (value: unknown): Hash => hashOfJson(canonicalJson(value));

/** Deep equality of JSON values; a key holding undefined counts as absent, as in canonical JSON. */
export function jsonEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => jsonEquals(item, b[i]));
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = (o: Record<string, unknown>) => Object.keys(o).filter((k) => o[k] !== undefined);
  const kx = keys(x);
  if (kx.length !== keys(y).length) return false;
  return kx.every((k) => jsonEquals(x[k], y[k]));
}
