import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { projection } from '@app/platform/projector/projection';
import { collectionName, type Doc } from '@app/platform/readstore/read-store.port';
import { EMPTY_CONTENT } from '../domain/tree/content';
import { canonicalJson, type Hash, hashOfJson } from '../domain/tree/hash';

/**
 * One immutable content object, as the canonical JSON its hash names: as it is, or (a document, most of
 * a revision's bytes) deflated, in base64, which stores a page in about a third of its JSON.
 */
export interface ContentObjectDoc extends Doc {
  json?: string;
  deflated?: string;
}

export const CONTENT_OBJECTS = collectionName<ContentObjectDoc>('content_objects');

/** Below this, deflating saves too little to pay for the inflating on a read. */
const DEFLATE_FROM = 512;

export function contentObjectDoc(id: Hash, json: string): ContentObjectDoc {
  if (json.length < DEFLATE_FROM) return { id, json };
  return { id, deflated: deflateRawSync(json).toString('base64') };
}

/** The object a stored document holds. */
export function readContentObject(doc: ContentObjectDoc): unknown {
  const json = doc.json ?? inflateRawSync(Buffer.from(doc.deflated ?? '', 'base64')).toString('utf8');
  return JSON.parse(json);
}

/**
 * The objects of every space's content, by hash (`ContentObjectsStored`). An object never changes, so
 * writing it again is the same write: it needs no replay guard, and no read of the stored one.
 */
export const contentObjectProjection = projection(
  'content-objects',
  [],
  {
    ContentObjectsStored: async (e, ctx) => {
      const objects = e.data.objects as Record<Hash, string>;
      for (const id in objects)
        await ctx.put(CONTENT_OBJECTS, contentObjectDoc(id, objects[id]), { selfGuarded: true });
    },
  },
  [CONTENT_OBJECTS],
);

/** The root of empty content: every space starts there, and no event needs to store it. */
export const EMPTY_ROOT: Hash = hashOfJson(canonicalJson(EMPTY_CONTENT));

/** What `ObjectWriter.created` gives, as the event stores it. */
export function serializeObjects(created: ReadonlyMap<Hash, unknown>): Record<Hash, string> {
  const out: Record<Hash, string> = {};
  for (const [hash, value] of created) out[hash] = canonicalJson(value);
  return out;
}
