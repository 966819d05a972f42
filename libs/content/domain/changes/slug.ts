import { type ContentObject, slugKey } from '@app/documents/tree/content';
import { mapGet } from '@app/documents/tree/merkle-map';
import type { ObjectStore } from '@app/documents/tree/objects';
import { SLUG_MAX_LENGTH } from '@app/documents/tree/page';
import { slug as githubSlug } from 'github-slugger';

/** Room left for a `-<n>` suffix that makes a derived slug unique. */
const SUFFIX_ROOM = 8;

/**
 * A slug for a title: github-slugger's (lowercase, punctuation dropped, spaces to `-`), then narrowed to
 * `[a-z0-9-]` so that paths stay plain ASCII (accents are dropped first, so `Café` gives `cafe`).
 */
export function slugify(title: string): string {
  const ascii = githubSlug(title.normalize('NFKD').replace(/\p{M}/gu, ''))
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .slice(0, SLUG_MAX_LENGTH - SUFFIX_ROOM)
    .replace(/^-|-$/g, '');
  return ascii === '' ? 'page' : ascii;
}

/** A slug kept as it is given: a path segment of letters (any script), digits, `-`, `_`, `.` and `~`. */
const PLAIN_SLUG = /^[\p{L}\p{N}._~-]+$/u;

/**
 * A slug as a change or a page's frontmatter gives it, as GitBook takes it (RevisionPageSlug: any string
 * of at most 100 characters, "used to build the page's path"): slashes around it dropped (`/latest/`
 * is `latest`), and one that is no plain URL segment (`Latest Docs`, `guides/intro`) made one the way
 * titles are (`latest-docs`, `guides-intro`). A plain one is kept as it is. Undefined for an empty
 * one, which says nothing: the slug is then derived from the title, or left as it was.
 */
export function normalizeSlug(slug: string): string | undefined {
  const trimmed = slug.trim().replace(/^\/+|\/+$/g, '');
  if (trimmed === '') return undefined;
  if (PLAIN_SLUG.test(trimmed) && trimmed.length <= SLUG_MAX_LENGTH && !/^\.+$/.test(trimmed)) return trimmed;
  return slugify(trimmed.replace(/\/+/g, '-'));
}

/** `slug`, or `slug-2`, `slug-3`… : the first one no page under `parent` holds. */
export async function uniqueSlug(
  store: ObjectStore,
  content: ContentObject,
  parent: string | null,
  slug: string,
): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? slug : `${slug}-${n}`;
    if ((await mapGet(store, content.slugs, slugKey(parent, candidate))) === undefined) return candidate;
  }
}
