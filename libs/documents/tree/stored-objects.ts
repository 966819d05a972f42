import { constants, deflateRawSync, inflateRawSync } from 'node:zlib';
import { deriveKeys, withoutDerivedKeys } from './derived-keys';
import { canonicalJson, type Hash } from './hash';

/**
 * How a content object is written in the event that stores it (`ContentObjectsStored`), as a string:
 *
 * - canonical JSON itself, what its hash is computed over: small objects (map nodes, pages, content
 *   roots), and every object stored before the forms below existed;
 * - `~z` and the base64 of the deflated canonical JSON: a larger object (a document's JSON repeats its
 *   field names node after node, and deflates to a tenth or less);
 * - `~k` and the base64 of the deflated canonical JSON of a document without the node keys that
 *   `deriveKeys` computes back from its content (a key is 12 random-looking characters, which no
 *   compression shrinks: a third of a deflated document). Used only when deriving them gives back
 *   exactly the document stored;
 * - `~p<n>`: an object too large for one event, whose form above is cut into `n` parts stored before
 *   it under `<hash>.1` … `<hash>.n` (`partId`), each `~r` and its slice of the text.
 *
 * JSON never starts with `~`, so every form is told from the others by its first characters, and
 * what was stored as plain canonical JSON reads as it always did.
 */

/** Canonical JSON shorter than this stays as it is: deflating it would save little or nothing. */
const PACK_FROM = 200;
const DEFLATED = '~z';
const KEYLESS = '~k';
const PARTS = '~p';
const PART = '~r';

export type StoredObjectText = string;

/** The stored text of an object whose canonical JSON is `json` (computed when not given). */
export function encodeObject(value: unknown, json: string = canonicalJson(value)): StoredObjectText {
  if (json.length < PACK_FROM) return json;
  const keyless = keylessJson(value, json);
  const packed = keyless === undefined ? DEFLATED + deflate(json) : KEYLESS + deflate(keyless);
  return packed.length < json.length ? packed : json;
}

/** The object a stored text holds, in any of the forms `encodeObject` writes (not a part list: `joinParts`). */
export function decodeObject(stored: StoredObjectText): unknown {
  if (!stored.startsWith('~')) return JSON.parse(stored);
  const tag = stored.slice(0, 2);
  if (tag === DEFLATED) return JSON.parse(inflate(stored.slice(2)));
  if (tag === KEYLESS) {
    const document = JSON.parse(inflate(stored.slice(2))) as { nodes?: unknown };
    deriveKeys(document);
    return document;
  }
  if (tag === PARTS) throw new Error('a content object stored in parts is read with its parts (joinParts)');
  throw new Error(`unknown stored form of a content object: ${JSON.stringify(stored.slice(0, 8))}`);
}

/** The number of parts an object stored in parts has; undefined for an object stored whole. */
export function partCount(stored: StoredObjectText): number | undefined {
  if (!stored.startsWith(PARTS)) return undefined;
  const count = Number(stored.slice(2));
  if (!Number.isInteger(count) || count < 1) throw new Error(`malformed part list ${stored.slice(0, 16)}`);
  return count;
}

/** Where part `i` (from 1) of the object `hash` is stored: an id no hash can be. */
export const partId = (hash: Hash, i: number) => `${hash}.${i}`;

/** The stored text of an object whose parts (`~r…`, in order) were read. */
export function joinParts(parts: readonly StoredObjectText[]): StoredObjectText {
  return parts
    .map((part, i) => {
      if (!part.startsWith(PART)) throw new Error(`part ${i + 1} of a content object is malformed`);
      return part.slice(2);
    })
    .join('');
}

/**
 * The entries that store `encoded` (the stored text of the object `hash`) in events of at most about
 * `maxChars` each: itself when it fits, else its parts (each alone in its event, in order) and then the
 * part count under the hash, last, so that once the hash is found its parts are there.
 */
export function storedEntries(
  hash: Hash,
  encoded: StoredObjectText,
  maxChars: number,
): Array<[id: string, stored: StoredObjectText]> {
  if (encoded.length <= maxChars) return [[hash, encoded]];
  const size = maxChars - PART.length;
  const count = Math.ceil(encoded.length / size);
  const entries: Array<[string, StoredObjectText]> = [];
  for (let i = 0; i < count; i++)
    entries.push([partId(hash, i + 1), PART + encoded.slice(i * size, (i + 1) * size)]);
  entries.push([hash, `${PARTS}${count}`]);
  return entries;
}

function keylessJson(value: unknown, json: string): string | undefined {
  if (!isDocument(value)) return undefined;
  const keyless = withoutDerivedKeys(value);
  const strippedJson = canonicalJson(keyless);
  if (strippedJson.length === json.length) return undefined;
  const rekeyed = JSON.parse(strippedJson) as { nodes?: unknown };
  deriveKeys(rekeyed);
  return canonicalJson(rekeyed) === json ? strippedJson : undefined;
}

const isDocument = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  (value as Record<string, unknown>).object === 'document' &&
  Array.isArray((value as Record<string, unknown>).nodes);

const deflate = (json: string) =>
  deflateRawSync(json, { level: constants.Z_BEST_COMPRESSION, memLevel: 9 }).toString('base64');

const inflate = (base64: string) => inflateRawSync(Buffer.from(base64, 'base64')).toString('utf8');
