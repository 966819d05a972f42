import { type SpaceContentEvent, viewedObjects } from '@app/content/content.api';
import type { Document } from '@app/documents/document';
import { type ContentObject, EMPTY_ROOT, readContent } from '@app/documents/tree/content';
import { diffObjects, type ItemDiff } from '@app/documents/tree/diff';
import type { Hash } from '@app/documents/tree/hash';
import type { ObjectStore } from '@app/documents/tree/objects';
import type { PageObject } from '@app/documents/tree/page';
import { getDocument } from '@app/documents/tree/page-tree';
import { type ProjectionContext, projection } from '@app/platform/projector/projection';
import { collectionName, type Doc } from '@app/platform/readstore/read-store.port';
import type { SpaceEvent } from '@app/spaces/domain/space.decider';
import {
  DEFAULT_LANGUAGE,
  type IndexedSection,
  type PackedPostings,
  packPositions,
  packPostings,
  pageForIndex,
  postings,
} from '../domain';

/**
 * A page's postings, one document per page of a space's current revision: a merge writes one for each
 * page it changed, however many terms the page holds (one document per term and page took a merge's
 * search from 10 to about 400 B-tree pages written). Queries rank from an index of them kept in memory
 * (`SpaceIndexes`), which follows the space's root; `_pos` tells it which documents are newer than the
 * index document it read.
 */
export interface PageTermsDoc extends Doc {
  space: string;
  pageId: string;
  /** The page's term count (title and content), for length normalization. */
  length: number;
  /** The ids of the sections its postings name, by position. */
  sectionIds: string[];
  postings: PackedPostings;
  /**
   * Where each posting's term is in the page (`packPositions`), for phrases and proximity. Always
   * written; a document without (none is, from this version on) ranks without them.
   */
  positions?: string;
}

/** What a result shows of a page: its title and sections' text, as indexed. */
export interface SearchPageDoc extends Doc {
  space: string;
  pageId: string;
  title: string;
  sections: IndexedSection[];
  length: number;
}

/** A space's index: the revision root it holds, the language it was analysed in, and ranking's totals. */
export interface SearchIndexDoc extends Doc {
  root: Hash;
  /** The language of its postings, which queries are analysed in too; absent: English. */
  language?: string;
  pages: number;
  totalLength: number;
  /** Log position of the last event that moved it: an event at or before it is applied already. */
  position: number;
}

export const SEARCH_PAGES = collectionName<SearchPageDoc>('search_pages');
/** Postings with their positions: `search_page_terms` held them without. */
export const SEARCH_PAGE_TERMS = collectionName<PageTermsDoc>('search_page_postings');
export const SEARCH_INDEXES = collectionName<SearchIndexDoc>('search_indexes');
/**
 * Where postings were kept before: a document per term and page (`search_postings`, `search_terms`),
 * then one per page without positions (`search_page_terms`). Declared so that a rebuild of this
 * projection empties them; holding documents, they start that rebuild (`backfillWhen`).
 */
const EARLIER_POSTINGS = ['search_terms', 'search_postings', 'search_page_terms'];

const pageKey = (space: string, pageId: string) => `${space}:${pageId}`;
/** A space's page documents: ids start with this (space ids hold no colon). */
export const spacePagesPrefix = (space: string) => `${space}:`;

/** Whether a page of a revision is in its space's index: documents and groups, unless left out. */
export const indexable = (page: PageObject): boolean =>
  !page.noIndex && (page.type === 'document' || page.type === 'group');

/** The language a space's index is analysed in (and its queries with it). */
export const indexLanguage = (index: SearchIndexDoc | null): string => index?.language ?? DEFAULT_LANGUAGE;

/**
 * Full-text search over each space's current revision, in the space's language. A merge moves the space
 * to a new root: only the pages that differ from the indexed root are indexed again (a document of
 * their postings and one of their text each), so a merge costs what it changed. A new language indexes every page again;
 * a duplicate starts indexed with its source's content. Content objects are read from their own view,
 * where they were stored before the event that names them.
 */
export const searchProjection = {
  ...projection<SpaceEvent | SpaceContentEvent>(
    'search',
    [{ collection: SEARCH_PAGES, fields: ['space'] }],
    {
      SpaceCreated: async (e, ctx) => {
        const { id, root, language } = e.data;
        // Most spaces start empty and English: their index waits for their first merge.
        if (root || language) await reindex(ctx, e.position, id, root ?? EMPTY_ROOT, language);
      },
      SpaceUpdated: async (e, ctx) => {
        const { spaceId, changes } = e.data;
        if (changes.language !== undefined)
          await reindex(ctx, e.position, spaceId, undefined, changes.language);
      },
      ChangeRequestMerged: async (e, ctx) => {
        const { spaceId, revision } = e.data;
        await reindex(ctx, e.position, spaceId, revision.root);
      },
      SpacePurged: async (e, ctx) => {
        await reindex(ctx, e.position, e.data.spaceId, EMPTY_ROOT);
        await ctx.delete(SEARCH_INDEXES, e.data.spaceId);
      },
    },
    [SEARCH_PAGE_TERMS, SEARCH_PAGES, SEARCH_INDEXES, ...EARLIER_POSTINGS],
  ),
  // Views from before postings were kept by page with their positions are indexed again once, from the log.
  backfillWhen: { own: SEARCH_PAGE_TERMS, witnesses: EARLIER_POSTINGS },
};

/** Page lengths learnt, at most: a bound on memory (about 10 MB). */
const MAX_LENGTHS = 100_000;
/**
 * Pages' lengths by language, title and document, as their analysis found them: a merge takes out the
 * length of each page as it was, which the merge that indexed it learnt, without analysing it again.
 * Keyed by immutable content, a length kept is never wrong; one not kept is computed.
 */
const lengths = new Map<string, number>();
const lengthKey = (page: PageObject, language: string) =>
  `${language}\u0000${page.documentId ?? ''}\u0000${page.title}`;

function rememberLength(page: PageObject, language: string, length: number): void {
  const key = lengthKey(page, language);
  lengths.delete(key);
  lengths.set(key, length);
  if (lengths.size > MAX_LENGTHS) lengths.delete(lengths.keys().next().value as string);
}

/**
 * Indexes the space's `root` (absent: the one indexed) in `language` (absent: the index's own), for the
 * event at `position`. What leaves the index is found from the content of the indexed root (immutable
 * objects), never from the index's other documents: after a crash that stored only some of an event's
 * writes, those may already be the new ones, and the event must still come out the same when replayed.
 */
async function reindex(
  ctx: ProjectionContext,
  position: number,
  space: string,
  root: Hash | undefined,
  language?: string,
): Promise<void> {
  const stored = await ctx.get(SEARCH_INDEXES, space);
  // Replayed over an index that a later event moved already: diffing from there would undo that event.
  if (stored && stored.position >= position) return;
  const index = stored ?? { id: space, root: EMPTY_ROOT, pages: 0, totalLength: 0, position };
  const from = indexLanguage(stored);
  const to = language ?? from;
  const target = root ?? index.root;
  if (index.root === target && to === from) return;
  const store = viewedObjects(ctx, ctx.log);
  const [before, after] = await Promise.all([readContent(store, index.root), readContent(store, target)]);
  // Postings of another language would match nothing: a new language takes every page out and in again.
  const changes =
    to === from
      ? await diffObjects<PageObject>(store, before.pages, after.pages)
      : await everyPage(store, before, after);
  /**
   * A page as the index holds it in `language`, its sections and postings; undefined if it has none.
   * Documents are read as each page needs one, not kept: a merge of thousands of pages would hold them all.
   */
  const analysed = async (page: PageObject | undefined, language: string) => {
    if (!page || !indexable(page)) return undefined;
    const document = page.documentId
      ? ((await getDocument(store, page.documentId)) as unknown as Document)
      : undefined;
    const indexedPage = pageForIndex(page, document);
    const list = postings(indexedPage, language);
    const length = list[0]?.length ?? 0;
    rememberLength(page, language, length);
    return { page: indexedPage, list, length };
  };
  /** The length a page as it was counts for: learnt when it was indexed, or analysed again. */
  const lengthOf = async (page: PageObject | undefined, language: string) =>
    page && indexable(page)
      ? (lengths.get(lengthKey(page, language)) ?? (await analysed(page, language))?.length)
      : undefined;
  let { pages, totalLength } = index;
  for (const change of changes) {
    const key = pageKey(space, change.id);
    const old = await lengthOf(change.before, from);
    if (old !== undefined) {
      pages -= 1;
      totalLength -= old;
    }
    const now = await analysed(change.after, to);
    if (!now) {
      if (old !== undefined) {
        await ctx.delete(SEARCH_PAGES, key);
        await ctx.delete(SEARCH_PAGE_TERMS, key);
      }
      continue;
    }
    const { page, list, length } = now;
    const sectionIds = page.sections.map((section) => section.id);
    await ctx.put(SEARCH_PAGES, {
      id: key,
      space,
      pageId: change.id,
      title: page.title,
      sections: page.sections,
      length,
    });
    await ctx.put(SEARCH_PAGE_TERMS, {
      id: key,
      space,
      pageId: change.id,
      length,
      sectionIds,
      postings: packPostings(list, sectionIds),
      positions: packPositions(list),
    });
    pages += 1;
    totalLength += length;
  }
  await ctx.put(SEARCH_INDEXES, {
    id: space,
    root: target,
    language: to,
    pages,
    totalLength,
    position,
  });
}

/** Every page of either content, with its version in each (absent where it is not): in id order. */
async function everyPage(
  store: ObjectStore,
  before: ContentObject,
  after: ContentObject,
): Promise<ItemDiff<PageObject>[]> {
  const [old, now] = await Promise.all([
    diffObjects<PageObject>(store, null, before.pages),
    diffObjects<PageObject>(store, null, after.pages),
  ]);
  const byId = new Map<string, ItemDiff<PageObject>>();
  for (const { id, after: page } of old) byId.set(id, { id, before: page });
  for (const { id, after: page } of now) byId.set(id, { ...byId.get(id), id, after: page });
  return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
