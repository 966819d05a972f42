import {
  type ContentObject,
  type FileObject,
  getPageObject,
  type ReusableContentObject,
  readContent,
  type Variables,
} from './content';
import { type Hash, type JsonValue, jsonEquals } from './hash';
import { type MapRoot, mapDiff } from './merkle-map';
import { type ObjectStore, readObject } from './objects';
import type { PageObject, PageType } from './page';
import { pagePath } from './paths';

/**
 * What changed between two revisions, item by item, in the shape of GitBook's RevisionSemanticChange
 * (`page_created`, `page_edited` with `attributes: {field: {before, after}}`, `page_moved` with the
 * parents before and after, …), so that `getChangeRequestChanges` only has to present it. The cost
 * follows the number of changes: subtrees both revisions share are never read.
 */
export interface ChangedPage {
  id: string;
  type: PageType;
  title: string;
  path?: string;
}

export interface AttributeChange {
  before?: JsonValue;
  after?: JsonValue;
}

export type ContentChange =
  | { type: 'page_created' | 'page_deleted'; page: ChangedPage }
  | { type: 'page_edited'; page: ChangedPage; attributes: Record<string, AttributeChange> }
  | { type: 'page_moved'; page: ChangedPage; parent: { before?: ChangedPage; after?: ChangedPage } }
  | { type: 'file_created' | 'file_deleted'; file: FileObject }
  | { type: 'file_edited'; file: FileObject; attributes: Record<string, AttributeChange> }
  | { type: 'reusable_content_created' | 'reusable_content_deleted'; reusableContent: ReusableContentObject }
  | {
      type: 'reusable_content_edited';
      reusableContent: ReusableContentObject;
      attributes: Record<string, AttributeChange>;
    }
  | { type: 'variables_edited'; variables: Record<string, AttributeChange> };

/** One item that differs: absent `before` means added, absent `after` removed. */
export interface ItemDiff<T> {
  id: string;
  before?: T;
  after?: T;
}

/** The objects of a map (pages, files, reusable contents) that differ, in id order. */
export async function diffObjects<T>(store: ObjectStore, a: MapRoot, b: MapRoot): Promise<ItemDiff<T>[]> {
  const changes = await mapDiff(store, a, b);
  const read = (hash: JsonValue | undefined) =>
    hash === undefined ? undefined : readObject<T>(store, hash as string);
  return Promise.all(
    changes.map(async ({ key, before, after }) => ({
      id: key,
      before: await read(before),
      after: await read(after),
    })),
  );
}

/** The fields whose values differ, except those named in `skip`. */
export function changedAttributes(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  skip: ReadonlySet<string>,
): Record<string, AttributeChange> {
  const out: Record<string, AttributeChange> = {};
  for (const field of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    if (skip.has(field) || jsonEquals(before[field], after[field])) continue;
    out[field] = compactChange(before[field] as JsonValue | undefined, after[field] as JsonValue | undefined);
  }
  return out;
}

const compactChange = (before: JsonValue | undefined, after: JsonValue | undefined): AttributeChange => ({
  ...(before === undefined ? {} : { before }),
  ...(after === undefined ? {} : { after }),
});

const PAGE_PLACE = new Set(['id', 'parent', 'position']);
const ID = new Set(['id']);

export async function diffRevisions(store: ObjectStore, base: Hash, other: Hash): Promise<ContentChange[]> {
  if (base === other) return [];
  const [a, b] = await Promise.all([readContent(store, base), readContent(store, other)]);
  const out: ContentChange[] = [];
  const changed = async (content: ContentObject, page: PageObject): Promise<ChangedPage> => {
    const path = await pagePath(store, content, page);
    return { id: page.id, type: page.type, title: page.title, ...(path === undefined ? {} : { path }) };
  };
  const parentOf = async (content: ContentObject, parent: string | null) => {
    const page = parent === null ? undefined : await getPageObject(store, content, parent);
    return page && (await changed(content, page));
  };
  for (const { before, after } of await diffObjects<PageObject>(store, a.pages, b.pages)) {
    if (!before) out.push({ type: 'page_created', page: await changed(b, after as PageObject) });
    else if (!after) out.push({ type: 'page_deleted', page: await changed(a, before) });
    else {
      const page = await changed(b, after);
      const attributes = changedAttributes(before, after, PAGE_PLACE);
      if (Object.keys(attributes).length > 0) out.push({ type: 'page_edited', page, attributes });
      if (before.parent !== after.parent || before.position !== after.position) {
        const [was, is] = await Promise.all([parentOf(a, before.parent), parentOf(b, after.parent)]);
        out.push({
          type: 'page_moved',
          page,
          parent: { ...(was && { before: was }), ...(is && { after: is }) },
        });
      }
    }
  }
  for (const { before, after } of await diffObjects<FileObject>(store, a.files, b.files)) {
    if (!before) out.push({ type: 'file_created', file: after as FileObject });
    else if (!after) out.push({ type: 'file_deleted', file: before });
    else out.push({ type: 'file_edited', file: after, attributes: changedAttributes(before, after, ID) });
  }
  for (const { before, after } of await diffObjects<ReusableContentObject>(store, a.reusables, b.reusables)) {
    if (!before)
      out.push({ type: 'reusable_content_created', reusableContent: after as ReusableContentObject });
    else if (!after) out.push({ type: 'reusable_content_deleted', reusableContent: before });
    else {
      const attributes = changedAttributes(before, after, ID);
      out.push({ type: 'reusable_content_edited', reusableContent: after, attributes });
    }
  }
  if (a.variables !== b.variables) {
    const read = (hash: Hash | null) => (hash ? readObject<Variables>(store, hash) : {});
    const variables = changedAttributes(await read(a.variables), await read(b.variables), new Set());
    out.push({ type: 'variables_edited', variables });
  }
  return out;
}
