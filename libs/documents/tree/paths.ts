import { type ContentObject, getPageObject, slugKey } from './content';
import { mapGet } from './merkle-map';
import type { ObjectStore } from './objects';
import type { PageObject } from './page';

/**
 * Page paths, as GitBook builds them: a page's path is its parent's path, `/`, and its slug; a top-level
 * page's path is its slug. Groups have slugs and count like any parent, so a page in group `guides` is
 * at `guides/intro` (GitBook answers groups at their own path too). Link and computed pages have no
 * slug and so no path. Paths carry no leading or trailing `/`.
 */
const MAX_DEPTH = 1000;

/** The segments of a path; leading and trailing slashes are ignored, an empty segment matches nothing. */
export function pathSegments(path: string): string[] | undefined {
  const segments = path.replace(/^\/+|\/+$/g, '').split('/');
  return segments.some((s) => s === '') ? undefined : segments;
}

/** A page's path, from the slugs of its ancestors: O(depth) lookups. */
export async function pagePath(
  store: ObjectStore,
  content: ContentObject,
  page: PageObject,
): Promise<string | undefined> {
  if (page.slug === undefined) return undefined;
  const segments = [page.slug];
  let parent = page.parent;
  for (let depth = 0; parent !== null; depth++) {
    const above = await getPageObject(store, content, parent);
    if (!above || above.slug === undefined || depth > MAX_DEPTH) return undefined;
    segments.push(above.slug);
    parent = above.parent;
  }
  return segments.reverse().join('/');
}

/** The page at a path: one slug lookup per segment, each O(log n). */
export async function findPageByPath(
  store: ObjectStore,
  content: ContentObject,
  path: string,
): Promise<PageObject | undefined> {
  const segments = pathSegments(path);
  if (!segments) return undefined;
  let parent: string | null = null;
  for (const segment of segments) {
    const id = await mapGet(store, content.slugs, slugKey(parent, segment));
    if (typeof id !== 'string') return undefined;
    parent = id;
  }
  return parent === null ? undefined : getPageObject(store, content, parent);
}
