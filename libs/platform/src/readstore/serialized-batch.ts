import type { Doc, Write } from './read-store.port';

/**
 * Writes with their documents already serialized, as parallel arrays: the form in which a rebuild hands
 * a batch to the thread that commits it (see CommitThread). Copying an object graph to a thread costs
 * about what serializing it does, and the thread would serialize it again; and a thread copies a few
 * long arrays about twice as fast as as many small objects.
 */
export interface SerializedBatch {
  /** The distinct collections written, and for each the fields whose values travel with its documents. */
  collections: string[];
  fields: string[][];
  /** Per write: its collection (an index into `collections`), id, JSON (null deletes) and `created`. */
  collectionOf: Uint16Array;
  ids: string[];
  jsons: (string | null)[];
  created: Uint8Array;
  /** The travelling fields' values of each document written (none for a delete), one write after another. */
  values: unknown[];
}

/** A serialized write as the committing side reads it. */
export interface SerializedWrite {
  collection: string;
  id: string;
  json: string | null;
  created: true | undefined;
  /** A field's value: from those that travelled, else parsed from the JSON. */
  value(field: string): unknown;
}

/**
 * Serializes `writes`; `fieldsOf` names, per collection, the fields whose values travel beside the
 * JSON (those its table keeps in columns, as far as the sender knows).
 */
export function serializeBatch(writes: Write[], fieldsOf: (collection: string) => string[]): SerializedBatch {
  const batch: SerializedBatch = {
    collections: [],
    fields: [],
    collectionOf: new Uint16Array(writes.length),
    ids: new Array(writes.length),
    jsons: new Array(writes.length),
    created: new Uint8Array(writes.length),
    values: [],
  };
  const indexOf = new Map<string, number>();
  for (let i = 0; i < writes.length; i++) {
    const { collection, id, doc, created } = writes[i];
    let at = indexOf.get(collection);
    if (at === undefined) {
      at = batch.collections.length;
      indexOf.set(collection, at);
      batch.collections.push(collection);
      batch.fields.push(fieldsOf(collection));
    }
    batch.collectionOf[i] = at;
    batch.ids[i] = id;
    batch.created[i] = created ? 1 : 0;
    if (doc === null) {
      batch.jsons[i] = null;
      continue;
    }
    const stored = doc.id === id ? doc : { ...doc, id };
    batch.jsons[i] = JSON.stringify(stored);
    for (const field of batch.fields[at]) batch.values.push(stored[field]);
  }
  return batch;
}

/** Calls `apply` with each write of `batch`, in order. */
export function forEachSerialized(batch: SerializedBatch, apply: (write: SerializedWrite) => void): void {
  let offset = 0;
  for (let i = 0; i < batch.ids.length; i++) {
    const json = batch.jsons[i];
    const fields = batch.fields[batch.collectionOf[i]];
    const first = offset;
    if (json !== null) offset += fields.length;
    let parsed: Doc | undefined;
    apply({
      collection: batch.collections[batch.collectionOf[i]],
      id: batch.ids[i],
      json,
      created: batch.created[i] === 1 ? true : undefined,
      value(field) {
        const at = fields.indexOf(field);
        if (at >= 0) return batch.values[first + at];
        parsed ??= JSON.parse(json as string) as Doc;
        return parsed[field];
      },
    });
  }
}
