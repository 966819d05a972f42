import { normalizeSlug, slugify } from '../changes/slug';
import { folderOf, isMarkdown } from './paths';
import type { SummaryEntry, SummaryPage } from './summary';

/** One page to create, in the order to create them (a parent before its children). */
export interface PlannedPage {
  /** Its ref in the plan: `p<n>` in SUMMARY.md's order. */
  key: string;
  type: 'document' | 'group';
  title: string;
  slug: string;
  /** The parent's key; absent at the top. */
  parent?: string;
  /** The Markdown file of a document page, relative to the root. */
  file?: string;
  depth: number;
}

export interface PageTree {
  pages: PlannedPage[];
  /** Markdown file → key of its page. */
  byFile: ReadonlyMap<string, string>;
  /** Files SUMMARY.md names a second time (GitBook allows one page per file): only the first is a page. */
  repeated: string[];
}

/**
 * A page's slug from its file, as GitBook's Git Sync derives it: the file's name without `.md`
 * (`guides/install.md` is `install`), a folder's `README.md` the folder's name (`guides/README.md` is
 * `guides`), and made a URL segment as this service takes slugs (`Getting Started.md` is
 * `getting-started`, `/latest/` is `latest`, letters of any script kept). The root's README has no
 * name of its own: the title gives it one.
 */
export function slugFromFile(file: string, title: string): string {
  const name = file.slice(file.lastIndexOf('/') + 1);
  const base = /^readme\.md$/i.test(name)
    ? folderOf(file).split('/').pop() || ''
    : name.replace(/\.md$/i, '');
  return normalizeSlug(base) ?? slugify(title);
}

/** `slug`, or `slug-2`, `slug-3`…: the first none of `taken` holds (compared ignoring case). */
function unique(slug: string, taken: Set<string>): string {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? slug : `${slug}-${n}`;
    if (!taken.has(candidate.toLowerCase())) {
      taken.add(candidate.toLowerCase());
      return candidate;
    }
  }
}

/**
 * The pages SUMMARY.md describes, parents first in its order, each with its slug (unique among its
 * siblings). `readme` (the first page, `structure.readme`) comes first when SUMMARY.md does not list
 * it and `readmeTitle` is given (the file exists). `slugOf` may give a page's own slug (its
 * frontmatter's), which then wins over its file name's.
 */
export function buildTree(
  entries: readonly SummaryEntry[],
  options: { readme?: string; readmeTitle?: string; slugOf?: (file: string) => string | undefined } = {},
): PageTree {
  const pages: PlannedPage[] = [];
  const byFile = new Map<string, string>();
  const repeated: string[] = [];
  const listed = new Set<string>();
  const collect = (list: readonly SummaryPage[]) => {
    for (const page of list) {
      listed.add(page.file);
      collect(page.children);
    }
  };
  collect(entries.flatMap((e) => (e.kind === 'group' ? e.children : [e])));
  const top: SummaryEntry[] = [...entries];
  if (options.readme && options.readmeTitle !== undefined && !listed.has(options.readme))
    top.unshift({ kind: 'page', title: options.readmeTitle, file: options.readme, children: [] });

  const place = (list: readonly SummaryEntry[], parent: string | undefined, depth: number) => {
    const taken = new Set<string>();
    for (const entry of list) {
      if (entry.kind === 'page' && (byFile.has(entry.file) || !isMarkdown(entry.file))) {
        repeated.push(entry.file);
        continue;
      }
      const key = `p${pages.length + 1}`;
      const given = entry.kind === 'page' ? options.slugOf?.(entry.file) : undefined;
      const own = given === undefined ? undefined : normalizeSlug(given);
      const slug =
        own ?? (entry.kind === 'page' ? slugFromFile(entry.file, entry.title) : slugify(entry.title));
      pages.push({
        key,
        type: entry.kind === 'group' ? 'group' : 'document',
        title: entry.title || 'Untitled',
        slug: unique(slug, taken),
        ...(parent ? { parent } : {}),
        ...(entry.kind === 'page' ? { file: entry.file } : {}),
        depth,
      });
      if (entry.kind === 'page') byFile.set(entry.file, key);
      place(entry.children, key, depth + 1);
    }
  };
  place(top, undefined, 0);
  return { pages, byFile, repeated };
}
