import {
  type ContentObject,
  childRange,
  type FileObject,
  getPageObject,
  parseChildKey,
  type ReusableContentObject,
  readContent,
  type Variables,
} from './content';
import type { Hash, JsonValue } from './hash';
import { type MapRoot, mapGet, mapScan } from './merkle-map';
import { type ObjectStore, readObject } from './objects';
import type { PageObject } from './page';
import { findPageByPath, pagePath, pathSegments } from './paths';

/**
 * Reading a revision's content. Every read starts from the content root hash and walks down, so any
 * revision, however old, reads at the same cost: a page by id or path takes O(depth × log n) objects;
 * listing takes every page object once.
 */

/** A page as readers see it: its position among siblings is implied by the order of lists. */
export type PageView = Omit<PageObject, 'position'> & { path?: string };
export type PageNode = PageView & { pages: PageNode[] };

const view = (page: PageObject, path: string | undefined): PageView => {
  const { position: _, ...rest } = page;
  return path === undefined ? rest : { ...rest, path };
};

/** The whole page tree in order, each page with its path and its children. */
export async function listPages(store: ObjectStore, root: Hash): Promise<PageNode[]> {
  const content = await readContent(store, root);
  const [order, hashes] = await Promise.all([
    mapScan(store, content.children),
    mapScan(store, content.pages),
  ]);
  const pages = new Map<string, PageObject>();
  await Promise.all(
    hashes.map(async ([id, hash]) => pages.set(id, await readObject<PageObject>(store, hash as string))),
  );
  // `children` is sorted by parent then position, so each parent's pages come together and in order.
  const kids = new Map<string, string[]>();
  for (const [key] of order) {
    const { parent, id } = parseChildKey(key);
    const list = kids.get(parent) ?? [];
    list.push(id);
    kids.set(parent, list);
  }
  const build = (parent: string, parentPath: string | undefined): PageNode[] =>
    (kids.get(parent) ?? []).map((id) => {
      const page = pages.get(id) as PageObject;
      const path =
        page.slug === undefined ? undefined : parentPath ? `${parentPath}/${page.slug}` : page.slug;
      return { ...view(page, path), pages: build(id, path) };
    });
  return build('', '');
}

export async function getPage(store: ObjectStore, root: Hash, id: string): Promise<PageView | undefined> {
  const content = await readContent(store, root);
  const page = await getPageObject(store, content, id);
  return page && view(page, await pagePath(store, content, page));
}

export async function getPageByPath(
  store: ObjectStore,
  root: Hash,
  path: string,
): Promise<PageView | undefined> {
  const content = await readContent(store, root);
  const page = await findPageByPath(store, content, path);
  // The path that found the page is its path: no need to walk its ancestors again.
  return page && view(page, pathSegments(path)?.join('/'));
}

/** The ids of a page's children in order (`null`: the top-level pages). */
export async function listChildren(store: ObjectStore, root: Hash, parent: string | null): Promise<string[]> {
  const content = await readContent(store, root);
  return childIds(store, content, parent);
}

export async function childIds(store: ObjectStore, content: ContentObject, parent: string | null) {
  return (await mapScan(store, content.children, childRange(parent))).map(([key]) => parseChildKey(key).id);
}

/** A page's or reusable content's body, as it was stored (GitBook's JSON document). */
export const getDocument = (store: ObjectStore, documentId: Hash): Promise<JsonValue> =>
  readObject<JsonValue>(store, documentId);

async function listObjects<T>(store: ObjectStore, map: MapRoot): Promise<T[]> {
  const entries = await mapScan(store, map);
  return Promise.all(entries.map(([, hash]) => readObject<T>(store, hash as string)));
}

async function getObject<T>(store: ObjectStore, map: MapRoot, id: string): Promise<T | undefined> {
  const hash = await mapGet(store, map, id);
  return typeof hash === 'string' ? readObject<T>(store, hash) : undefined;
}

/** The files, by id. */
export const listFiles = async (store: ObjectStore, root: Hash) =>
  listObjects<FileObject>(store, (await readContent(store, root)).files);

export const getFile = async (store: ObjectStore, root: Hash, id: string) =>
  getObject<FileObject>(store, (await readContent(store, root)).files, id);

export const listReusableContents = async (store: ObjectStore, root: Hash) =>
  listObjects<ReusableContentObject>(store, (await readContent(store, root)).reusables);

export const getReusableContent = async (store: ObjectStore, root: Hash, id: string) =>
  getObject<ReusableContentObject>(store, (await readContent(store, root)).reusables, id);

export async function getVariables(store: ObjectStore, root: Hash): Promise<Variables> {
  const { variables } = await readContent(store, root);
  return variables ? readObject<Variables>(store, variables) : {};
}
