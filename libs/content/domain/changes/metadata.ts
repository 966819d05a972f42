import type { Frontmatter } from '@app/documents/document';
import type { PagePatch } from '@app/documents/tree/editor';
import type { JsonObject } from '@app/documents/tree/hash';
import { compact } from '@app/documents/tree/page';
import { invalid } from '@app/platform/domain/decider';
import { isRecord, optionalBoolean, optionalString, requireString } from './check';
import { normalizeSlug } from './slug';

const slugOf = (slug: string | undefined) => (slug === undefined ? undefined : normalizeSlug(slug));

/** Page fields a change sets: a value sets one, null removes one (see `PagePatch`). */
export type Metadata = Omit<PagePatch, 'document'>;

/** GitBook removes these when given an empty string. */
const REMOVABLE = ['emoji', 'icon', 'condition'] as const;
const FLAGS = ['hidden', 'noIndex', 'noRobotsIndex'] as const;

/** The frontmatter keys that are page fields (`updateFields`, `gitSyncFields`): the others are kept as they are. */
const FIELD_KEYS = new Set([
  'title',
  'slug',
  'description',
  ...REMOVABLE,
  ...FLAGS,
  'layout',
  'vars',
  'cover',
  'coverY',
]);

/**
 * The fields of a change (GitBook's RevisionPageUpdate), then those of its Markdown frontmatter, which
 * take precedence, as GitBook documents. Frontmatter may also say what Git Sync's does: `layout`,
 * `cover` (a URL, with `coverY`) and `vars` (the page's variables). Its other keys (another tool's:
 * `hide_title`, `sidebar_position`, …) are kept with the page as they are (`frontmatter`), and written
 * back before the Markdown it is read as; a Markdown body without any removes those kept before.
 * `frontmatter` is undefined when the change has no Markdown body (nothing kept changes).
 */
export function pageMetadata(
  change: Record<string, unknown>,
  frontmatter: Frontmatter | undefined,
  path: string,
): Metadata {
  const where = `${path}.document.markdown frontmatter`;
  const given = frontmatter ?? {};
  return {
    ...compact(updateFields(change, path)),
    ...compact(updateFields(given, where)),
    ...compact(gitSyncFields(given, where)),
    ...(frontmatter === undefined ? {} : { frontmatter: keptFrontmatter(frontmatter) }),
  };
}

/** The frontmatter keys that are no page field, or null when there are none. */
function keptFrontmatter(frontmatter: Frontmatter): JsonObject | null {
  const kept: JsonObject = {};
  for (const [key, value] of Object.entries(frontmatter))
    if (!FIELD_KEYS.has(key) && value !== undefined) kept[key] = value as JsonObject[string];
  return Object.keys(kept).length === 0 ? null : kept;
}

function updateFields(source: Record<string, unknown>, path: string): Metadata {
  const out: Metadata = {
    title: source.title === undefined ? undefined : requireString(source.title, `${path}.title`),
    slug: slugOf(optionalString(source.slug, `${path}.slug`)),
    description: optionalString(source.description, `${path}.description`),
  };
  for (const field of REMOVABLE) {
    const value = optionalString(source[field], `${path}.${field}`);
    out[field] = value === '' ? null : value;
  }
  for (const field of FLAGS) out[field] = optionalBoolean(source[field], `${path}.${field}`);
  return out;
}

function gitSyncFields(frontmatter: Frontmatter, path: string): Metadata {
  const object = (field: string): JsonObject | undefined => {
    const value = frontmatter[field];
    if (value === undefined) return undefined;
    if (!isRecord(value)) throw invalid(`${path}.${field}: must be a mapping`);
    return value as JsonObject;
  };
  return { layout: object('layout'), variables: object('vars'), cover: cover(frontmatter, path) };
}

/** GitBook's page cover from Git Sync's `cover: <url>` and `coverY: <offset>`. */
function cover(frontmatter: Frontmatter, path: string): JsonObject | undefined {
  const { cover: url, coverY = 0 } = frontmatter;
  if (url === undefined) return undefined;
  if (typeof url !== 'string' || url === '') throw invalid(`${path}.cover: must be an image URL`);
  if (typeof coverY !== 'number') throw invalid(`${path}.coverY: must be a number`);
  return { ref: { kind: 'url', url }, yPos: coverY };
}
