import { type Hash, hashOf, type JsonObject } from './hash';
import { type MapNode, type MapRoot, mapDelete, mapGet, mapSet, nodeChildren } from './merkle-map';
import { type ObjectStore, type ObjectWriter, readObject } from './objects';
import { hasSlug, type PageObject } from './page';

/**
 * The content of a revision: one small object naming the roots of its maps. A revision (its id, parents,
 * author, time) is the caller's record and points to one of these; two revisions with the same content
 * share it, and a merge that changes nothing answers the hash it was given.
 *
 * - `pages`: page id → hash of the page object;
 * - `children`: `parent/position/id` → null, the pages of each parent in order (`parent` is empty at the top);
 * - `slugs`: `parent/slug` → id, to resolve a path one segment at a time;
 * - `files`, `reusables`: id → hash of the object; `variables`: hash of the revision's variables, if any.
 *
 * `children` and `slugs` are indexes of the page objects, kept by `applyPageChanges` alone.
 */
export interface ContentObject {
  k: 'content';
  pages: MapRoot;
  children: MapRoot;
  slugs: MapRoot;
  files: MapRoot;
  reusables: MapRoot;
  variables: Hash | null;
}

export const EMPTY_CONTENT: ContentObject = {
  k: 'content',
  pages: null,
  children: null,
  slugs: null,
  files: null,
  reusables: null,
  variables: null,
};

/** The root of empty content: every space starts there, and no event needs to store it. */
export const EMPTY_ROOT: Hash = hashOf(EMPTY_CONTENT);

/** GitBook's RevisionFile, as stored (`downloadURL` as the caller chose to keep it). */
export type FileObject = {
  id: string;
  name: string;
  contentType: string;
  downloadURL: string;
  size: number;
  dimensions?: { width: number; height: number };
  git?: { oid: string; path: string };
};

/** GitBook's RevisionReusableContent; its body is a document object, like a page's. */
export type ReusableContentObject = {
  id: string;
  title: string;
  documentId?: Hash;
  git?: { oid: string; path: string };
};

export type Variables = JsonObject;

export const readContent = (store: ObjectStore, root: Hash): Promise<ContentObject> =>
  readObject<ContentObject>(store, root);

export const childKey = (parent: string | null, position: string, id: string) =>
  `${parent ?? ''}/${position}/${id}`;
/** The parent, position and id in a key of `children` (none of them holds a `/`). */
export function parseChildKey(key: string): { parent: string; position: string; id: string } {
  const [parent, position, id] = key.split('/');
  return { parent, position, id };
}
export const slugKey = (parent: string | null, slug: string) => `${parent ?? ''}/${slug}`;
/** The bounds of a parent's children in `children`: `/` sorts just before `0`, and ids hold neither. */
export const childRange = (parent: string | null) => ({
  from: `${parent ?? ''}/`,
  before: `${parent ?? ''}0`,
});

export async function getPageObject(store: ObjectStore, content: ContentObject, id: string) {
  const hash = await mapGet(store, content.pages, id);
  return typeof hash === 'string' ? readObject<PageObject>(store, hash) : undefined;
}

export interface PageChange {
  id: string;
  before: PageObject | undefined;
  after: PageObject | undefined;
}

/** Two pages that would share a path: the one that took the slug, and the one already there. */
export interface SlugCollision {
  pageId: string;
  otherPageId: string;
  parent: string | null;
  slug: string;
}

/**
 * Writes a set of page changes and keeps the indexes in step. Old index entries all go before new
 * ones are added, so pages of one batch may swap slugs or places. A slug already held by another page
 * of the same parent is not taken: it is reported, and the caller refuses the change or reports a
 * conflict.
 */
export async function applyPageChanges(
  writer: ObjectWriter,
  content: ContentObject,
  changes: PageChange[],
): Promise<{ content: ContentObject; collisions: SlugCollision[] }> {
  let { pages, children, slugs } = content;
  const collisions: SlugCollision[] = [];
  for (const { before, after } of changes) {
    if (!before) continue;
    const oldChild = childKey(before.parent, before.position, before.id);
    if (!after || childKey(after.parent, after.position, after.id) !== oldChild) {
      children = await mapDelete(writer, children, oldChild);
    }
    const oldSlug = slugOf(before);
    if (oldSlug !== undefined && oldSlug !== (after && slugOf(after)))
      slugs = await mapDelete(writer, slugs, oldSlug);
  }
  for (const { id, before, after } of changes) {
    pages = after ? await mapSet(writer, pages, id, writer.put(after)) : await mapDelete(writer, pages, id);
    if (!after) continue;
    children = await mapSet(writer, children, childKey(after.parent, after.position, id), null);
    const newSlug = slugOf(after);
    if (newSlug === undefined || (before && slugOf(before) === newSlug)) continue;
    const holder = await mapGet(writer, slugs, newSlug);
    if (typeof holder === 'string' && holder !== id) {
      collisions.push({ pageId: id, otherPageId: holder, parent: after.parent, slug: after.slug as string });
    } else slugs = await mapSet(writer, slugs, newSlug, id);
  }
  return { content: { ...content, pages, children, slugs }, collisions };
}

const slugOf = (page: PageObject) =>
  hasSlug(page.type) && page.slug !== undefined ? slugKey(page.parent, page.slug) : undefined;

/**
 * The hashes an object of a content tree points to, told apart by shape: a content root names its maps;
 * a map node, its children and its values (page, file and reusable hashes; the ids that the indexes
 * hold are no object's hash and are skipped by the walk); a page or reusable content, its document.
 */
export function references(value: unknown): Hash[] {
  if (typeof value !== 'object' || value === null) return [];
  const record = value as Record<string, unknown>;
  if (record.k === 'content') {
    const c = record as unknown as ContentObject;
    return [c.pages, c.children, c.slugs, c.files, c.reusables, c.variables].filter(
      (h): h is Hash => h !== null,
    );
  }
  if (typeof record.h === 'number' && Array.isArray(record.e)) {
    const node = record as unknown as MapNode;
    const values = node.e.map((entry) => entry[1]).filter((v): v is string => typeof v === 'string');
    return [...nodeChildren(node), ...values];
  }
  return typeof record.documentId === 'string' ? [record.documentId] : [];
}
