import { ContentEditor } from './editor';
import type { Hash, JsonValue } from './hash';
import { MemoryObjectStore, type ObjectStore } from './objects';

/** Builders for the tests of the content tree and its merge. */

export const paragraph = (key: string, text: string): JsonValue => ({
  object: 'block',
  type: 'paragraph',
  key,
  data: {},
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
});

/** A GitBook document of paragraphs: `doc(['a', 'first'], ['b', 'second'])`. */
export const doc = (...blocks: Array<[key: string, text: string]>): JsonValue => ({
  object: 'document',
  data: {},
  nodes: blocks.map(([key, text]) => paragraph(key, text)),
});

/** Counts reads, to show what a read costs. */
export class CountingStore implements ObjectStore {
  gets = 0;

  constructor(private readonly inner: ObjectStore) {}

  get(hash: Hash): unknown {
    this.gets++;
    return this.inner.get(hash);
  }
}

/** Applies edits to a root (null: empty content) and stores what they created; answers the new root. */
export async function edit(
  store: MemoryObjectStore,
  root: Hash | null,
  change: (editor: ContentEditor) => Promise<unknown>,
): Promise<Hash> {
  const editor = await ContentEditor.open(store, root);
  await change(editor);
  const { root: next, created } = editor.commit();
  store.add(created);
  return next;
}

export const newStore = () => new MemoryObjectStore();
