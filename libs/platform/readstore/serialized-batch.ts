import type { Doc, Write } from './read-store.port';

/**
 * Writes with their documents already serialized, as parallel arrays: the form in which a rebuild hands
 * a batch to the thread that commits it (see CommitThread). Copying an object graph to a thread costs
 * about what serializing it does, and the thread would serialize it again; and a thread copies a few
 * long arrays about twice as fast as as many small objects.
 *
 * The values of a table's columns do not travel beside the JSON: the committing thread parses them from
 * it. That thread has time to spare while the rebuild's, which would copy five strings more per audit
 * entry, is the busier one (B5: 34.3 → 32.2 s, mean of 8 alternated pairs, faster in 6).
 */
export interface SerializedBatch {
  /** The distinct collections written. */
  collections: string[];
  /** Per write: its collection (an index into `collections`), id, JSON (null deletes) and `created`. */
  collectionOf: Uint16Array;
  ids: string[];
  jsons: (string | null)[];
  created: Uint8Array;
}

/** A serialized write as the committing side reads it. */
export interface SerializedWrite {
  collection: string;
  id: string;
  json: string | null;
  created: true | undefined;
  /** A field's value, parsed from the JSON (at most once per write). */
  value(field: string): unknown;
}

/** Serializes `writes`, each document under the id it is written with. */
export function serializeBatch(writes: Write[]): SerializedBatch {
  const batch: SerializedBatch = {
    collections: [],
    collectionOf: new Uint16Array(writes.length),
    ids: new Array(writes.length),
    jsons: new Array(writes.length),
    created: new Uint8Array(writes.length),
  };
  const indexOf = new Map<string, number>();
  for (let i = 0; i < writes.length; i++) {
    const { collection, id, doc, created } = writes[i];
    let at = indexOf.get(collection);
    if (at === undefined) {
      at = batch.collections.length;
      indexOf.set(collection, at);
      batch.collections.push(collection);
    }
    batch.collectionOf[i] = at;
    batch.ids[i] = id;
    batch.created[i] = created ? 1 : 0;
    batch.jsons[i] = doc === null ? null : JSON.stringify(doc.id === id ? doc : { ...doc, id });
  }
  return batch;
}

/** Calls `apply` with each write of `batch`, in order. */
export function forEachSerialized(batch: SerializedBatch, apply: (write: SerializedWrite) => void): void {
  for (let i = 0; i < batch.ids.length; i++) {
    const json = batch.jsons[i];
    let parsed: Doc | undefined;
    apply({
      collection: batch.collections[batch.collectionOf[i]],
      id: batch.ids[i],
      json,
      created: batch.created[i] === 1 ? true : undefined,
      value(field) {
        parsed ??= JSON.parse(json as string) as Doc;
        return parsed[field];
      },
    });
  }
}
