import { projection } from '@app/platform/projector/projection';
import { collectionName, type Doc } from '@app/platform/readstore/read-store.port';
import { EMPTY_CONTENT } from '../domain/tree/content';
import { canonicalJson, type Hash, hashOfJson } from '../domain/tree/hash';

/** One immutable content object, as the canonical JSON its hash names. */
export interface ContentObjectDoc extends Doc {
  json: string;
}

export const CONTENT_OBJECTS = collectionName<ContentObjectDoc>('content_objects');

/** The objects of every space's content, by hash (`ContentObjectsStored`). */
export const contentObjectProjection = projection(
  'content-objects',
  [],
  {
    ContentObjectsStored: async (e, ctx) => {
      const objects = e.data.objects as Record<Hash, string>;
      for (const id in objects) await ctx.put(CONTENT_OBJECTS, { id, json: objects[id] });
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
