import { deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * Data shorter than this stays JSON text: below it deflating saves a few bytes for the CPU of a
 * compression, and small events stay readable with SQLite's JSON functions.
 */
const PACK_FROM = 1024;

/**
 * An event's data as the SQLite log stores it: JSON text, or (large data: a change's content objects,
 * about 6 KB a page) deflated bytes, which keep a revision's content in well under half the space.
 * Only what saves space is packed; whatever was stored before stays readable as it is.
 */
export function packData(json: string): string | Uint8Array {
  if (json.length < PACK_FROM) return json;
  const packed = deflateRawSync(json);
  return packed.length < Buffer.byteLength(json) ? packed : json;
}

/** The JSON text of stored data, packed or not. */
export function unpackData(stored: string | Uint8Array): string {
  return typeof stored === 'string' ? stored : inflateRawSync(stored).toString('utf8');
}

/** Bytes as SQLite binds them: a buffer, which is what a Uint8Array that crossed threads is not. */
export function bindable(stored: string | Uint8Array): string | Buffer {
  if (typeof stored === 'string' || Buffer.isBuffer(stored)) return stored;
  return Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
}
