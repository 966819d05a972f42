import { inflateRawSync } from 'node:zlib';
import { EMPTY_CONTENT, EMPTY_ROOT } from '@app/documents/tree/content';
import type { Hash } from '@app/documents/tree/hash';
import type { ObjectStore } from '@app/documents/tree/objects';
import { decodeObject, joinParts, partCount, partId } from '@app/documents/tree/stored-objects';
import type { RecordedEvent } from '@app/platform/eventstore/event-store.port';
import { upcast } from '@app/platform/eventstore/upcasters';
import { type LogReads, projection } from '@app/platform/projector/projection';
import { collectionName, type Doc, type ReadStore } from '@app/platform/readstore/read-store.port';
import { type ContentObjectsEvent, contentObjectsStream } from '../domain/content-objects.decider';

/**
 * Where one immutable content object is: the `ContentObjectsStored` event at `revision` of the space's
 * objects stream (`space-objects-{space}`), whose data holds the canonical JSON its hash names. An
 * object is stored once, in the log; the view only finds it there (a revision's objects, mostly
 * hashes, were half of what a revision cost). Views projected before objects were found this way hold
 * the object itself, as JSON or (a large one) deflated in base64: `readContentObject` reads those as
 * they are.
 */
export interface ContentObjectDoc extends Doc {
  space?: string;
  revision?: number;
  json?: string;
  deflated?: string;
}

export const CONTENT_OBJECTS = collectionName<ContentObjectDoc>('content_objects');

/** Where `event` (a `ContentObjectsStored`) puts the object `id`. */
export const contentObjectDoc = (
  id: Hash,
  event: Pick<RecordedEvent<string, ContentObjectsEvent['data']>, 'data' | 'revision'>,
): ContentObjectDoc => ({ id, space: event.data.spaceId, revision: event.revision });

/**
 * Events whose objects are kept, parsed from the log, for each log read: a revision's objects are read
 * together. Each log has its own (one process may read several, as tests do).
 */
const KEPT_EVENTS = 64;
type KeptEvents = Map<string, Promise<Record<Hash, string> | undefined>>;
const keptByLog = new WeakMap<LogReads, KeptEvents>();

function keptFor(log: LogReads): KeptEvents {
  const kept = keptByLog.get(log);
  if (kept) return kept;
  const fresh: KeptEvents = new Map();
  keptByLog.set(log, fresh);
  return fresh;
}

/** The objects of the event at `revision` of `stream` (their stored text by id), read once for a while. */
function objectsOf(
  log: LogReads,
  stream: string,
  revision: number,
): Promise<Record<Hash, string> | undefined> {
  const kept = keptFor(log);
  const key = `${stream}@${revision}`;
  let objects = kept.get(key);
  if (!objects) {
    const forget = () => kept.delete(key);
    objects = log.eventAt(stream, revision).then((event) => {
      if (event) return (upcast(event).data as ContentObjectsEvent['data']).objects;
      forget();
      return undefined;
    });
    // A failed read is forgotten, so the next one tries again.
    objects.catch(forget);
    kept.set(key, objects);
    if (kept.size > KEPT_EVENTS) kept.delete(kept.keys().next().value as string);
  }
  return objects;
}

/**
 * The object a stored document finds (or, projected before, holds). One stored in parts is read with
 * its parts, which the views found before it (they were stored first).
 */
export async function readContentObject(
  doc: ContentObjectDoc,
  log: LogReads,
  views: Pick<ReadStore, 'get'>,
): Promise<unknown> {
  if (doc.json !== undefined) return JSON.parse(doc.json);
  if (doc.deflated !== undefined)
    return JSON.parse(inflateRawSync(Buffer.from(doc.deflated, 'base64')).toString('utf8'));
  const stored = await storedText(doc, log);
  const count = partCount(stored);
  if (count === undefined) return decodeObject(stored);
  const parts: string[] = [];
  for (let i = 1; i <= count; i++) {
    const part = await views.get(CONTENT_OBJECTS, partId(doc.id, i));
    if (!part) throw new Error(`part ${i} of content object ${doc.id} is not in the views`);
    parts.push(await storedText(part, log));
  }
  return decodeObject(joinParts(parts));
}

/** The text an event stores under the document's id. */
async function storedText(doc: ContentObjectDoc, log: LogReads): Promise<string> {
  const stream = contentObjectsStream(doc.space ?? '');
  const stored = (await objectsOf(log, stream, doc.revision ?? 0))?.[doc.id];
  if (stored === undefined)
    throw new Error(`content object ${doc.id} is not in ${stream}@${doc.revision} of the log`);
  return stored;
}

/**
 * Where each object of every space's content is (`ContentObjectsStored`). An object never changes:
 * stored again, it is found in its latest event, which a replay in log order finds again; so the
 * write needs no replay guard, and no read of the stored document. The documents are small pointers
 * read by hash: the collection is clustered, so SQLite keeps each hash once, not in a table and again
 * in its key index (about 70 bytes of every object, a dozen objects a merge).
 */
export const contentObjectProjection = projection<ContentObjectsEvent>(
  'content-objects',
  [{ collection: CONTENT_OBJECTS, fields: ['id'], clustered: true }],
  {
    ContentObjectsStored: async (e, ctx) => {
      for (const id in e.data.objects)
        await ctx.put(CONTENT_OBJECTS, contentObjectDoc(id, e), { selfGuarded: true });
    },
  },
  [CONTENT_OBJECTS],
);

/**
 * Content objects found through their view and read from the log, none kept (the empty content without a
 * read): how a projection reads them, through its context.
 */
export function viewedObjects(views: Pick<ReadStore, 'get'>, log: LogReads): ObjectStore {
  return {
    get: async (hash: Hash) => {
      if (hash === EMPTY_ROOT) return EMPTY_CONTENT;
      const doc = await views.get(CONTENT_OBJECTS, hash);
      return doc ? readContentObject(doc, log, views) : undefined;
    },
  };
}
