import { invalid } from '@app/platform/domain/decider';
import type { Hash, JsonObject, JsonValue } from './hash';

/** GitBook's page types: `document` pages have a body, `group`s only gather pages at the top level. */
export type PageType = 'document' | 'group' | 'link' | 'computed';

/**
 * One page of a revision, stored as an object of its own: everything GitBook says of a page except its
 * children (which the tree holds) and its path (computed from the slugs of its ancestors). Its place is
 * `parent` (null at the top) and `position` among its siblings (see positions.ts); its body is the
 * document object `documentId` (a content hash, so GitBook's `documentId` is stable while the body is).
 */
export type PageObject = {
  id: string;
  type: PageType;
  parent: string | null;
  position: string;
  title: string;
} & PageFields;

/** The fields a page may have beside its identity and place, as GitBook names them. */
export type PageFields = {
  slug?: string;
  documentId?: Hash;
  description?: string;
  emoji?: string;
  icon?: string;
  linkTitle?: string;
  condition?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  layout?: JsonObject;
  cover?: JsonObject;
  variables?: JsonObject;
  /** Link pages: where they point (a GitBook ContentRef) and the href it resolves to. */
  target?: JsonObject;
  href?: string;
  /** Computed pages and documents: the source that generates them. */
  computed?: JsonObject;
  computedSeed?: string;
  createdAt?: string;
  /** On a merge the later of two edits' times is kept, rather than a conflict. */
  updatedAt?: string;
  /**
   * Not GitBook's: the keys of the frontmatter of the page's Markdown that are no page field (another
   * tool's), kept as they were given and written back before the Markdown the page is read as.
   */
  frontmatter?: JsonObject;
};

/** The fields that say where a page is; a move changes them together and a merge never splits them. */
export const LOCATION_FIELDS = ['parent', 'position'] as const;

/** A page's id is part of the index keys, where `/` separates parts. */
const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const SLUG_MAX_LENGTH = 100;

export function checkPageId(id: string): void {
  if (!ID_PATTERN.test(id))
    throw invalid(`page id ${JSON.stringify(id)} must be 1 to 64 letters, digits, _ or -`);
}

/** Document and group pages are reached by path, so they need a slug; links and computed pages have none. */
export const hasSlug = (type: PageType): boolean => type === 'document' || type === 'group';

/** Pages that may have child pages: GitBook nests pages under documents and groups only. */
export const canHaveChildren = (type: PageType): boolean => type === 'document' || type === 'group';

export function checkSlug(slug: string): void {
  if (slug.length === 0 || slug.length > SLUG_MAX_LENGTH || slug.includes('/')) {
    throw invalid(`slug ${JSON.stringify(slug)} must be 1 to ${SLUG_MAX_LENGTH} characters without "/"`);
  }
}

export function checkTitle(title: unknown): void {
  if (typeof title !== 'string' || title.length === 0) throw invalid('a page needs a title');
}

/** A copy without the fields set to undefined, so that stored objects and their hashes agree. */
export function compact<T extends object>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) if (field !== undefined) out[key] = field;
  return out as T;
}

/** The page as a plain JSON record, for code that merges or compares its fields one by one. */
export const pageRecord = (page: PageObject): Record<string, JsonValue | undefined> =>
  page as unknown as Record<string, JsonValue | undefined>;
