import { type ProjectionContext, projection } from '@app/platform/projector/projection';
import { collectionName, type Doc } from '@app/platform/readstore/read-store.port';
import type { Document } from '../domain/document';
import {
  DEFAULT_LANGUAGE,
  type IndexedSection,
  impact,
  type Posting,
  pageForIndex,
  postings,
} from '../domain/search';
import { type ContentObject, EMPTY_CONTENT, readContent } from '../domain/tree/content';
import { diffObjects, type ItemDiff } from '../domain/tree/diff';
import type { Hash } from '../domain/tree/hash';
import type { ObjectStore } from '../domain/tree/objects';
import type { PageObject } from '../domain/tree/page';
import { getDocument } from '../domain/tree/page-tree';
import { CONTENT_OBJECTS, EMPTY_ROOT, readContentObject } from './content-objects';

/**
 * One term of one page of a space's current revision, under the id `postingId` gives: a space's postings
 * of a term are one range of the id order, best impact first, so a query reads a term's best postings
 * and counts its pages from the primary key alone, and a posting is one row with no index of its own to
 * keep (with an index on (space, term, impact), a merge's search writes cost about twice as much). The
 * collection is clustered: on SQLite a posting written or removed changes one page of one B-tree.
 */
export interface PostingDoc extends Doc {
  pageId: string;
  titleHits: number;
  bodyHits: number;
  /** Hits by section (a list: section ids are heading anchors, which need not be storable keys). */
  sections: { id: string; hits: number }[];
  length: number;
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

export const SEARCH_POSTINGS = collectionName<PostingDoc>('search_terms');
/**
 * Where postings were kept before, by space, term and page, with an index on their impact. Declared so
 * that a rebuild of this projection empties it; holding documents, it starts that rebuild (`backfillWhen`).
 */
const EARLIER_POSTINGS = 'search_postings';
export const SEARCH_PAGES = collectionName<SearchPageDoc>('search_pages');
export const SEARCH_INDEXES = collectionName<SearchIndexDoc>('search_indexes');

/**
 * A posting is written the same whenever its event is applied, and the index's position keeps an older
 * event from being applied over a newer one: postings need no per-document replay guard.
 */
const SELF_GUARDED = { selfGuarded: true } as const;

/** The page length impacts are computed against: about a screen of documentation. */
const IMPACT_LENGTH = 300;

/** Impacts are kept to four base-36 digits: to 1/10,000, up to 167 (one is at most about 10). */
const IMPACT_SCALE = 10_000;
const IMPACT_KEY_MAX = 36 ** 4 - 1;

/** A term's postings in a space: ids start with this (terms are words, so hold no colon). */
export const termPrefix = (space: string, term: string) => `${space}:${term}:`;

/** An impact in four base-36 digits, inverted: the higher the impact, the earlier its key sorts. */
function impactKey(value: number): string {
  const scaled = Math.min(IMPACT_KEY_MAX, Math.max(0, Math.round(value * IMPACT_SCALE)));
  return (IMPACT_KEY_MAX - scaled).toString(36).padStart(4, '0');
}

/**
 * A posting's id: its term's prefix, its impact's key, its page; so a term's postings sort best first.
 * What leaves the index is found by computing the same ids again from the page as it was: a change to
 * `impact` or to the analysis needs the postings rebuilt (in a new collection).
 */
const postingId = (space: string, posting: Omit<Posting, 'sections'>, pageId: string) =>
  `${termPrefix(space, posting.term)}${impactKey(impact(posting, IMPACT_LENGTH))}:${pageId}`;
const pageKey = (space: string, pageId: string) => `${space}:${pageId}`;

/** What a posting document holds beside its id. */
const postingDoc = (
  p: Posting,
): Pick<PostingDoc, 'pageId' | 'titleHits' | 'bodyHits' | 'sections' | 'length'> => ({
  pageId: p.pageId,
  titleHits: p.titleHits,
  bodyHits: p.bodyHits,
  sections: Object.entries(p.sections).map(([id, hits]) => ({ id, hits })),
  length: p.length,
});

/** The language a space's index is analysed in (and its queries with it). */
export const indexLanguage = (index: SearchIndexDoc | null): string => index?.language ?? DEFAULT_LANGUAGE;

/**
 * Full-text search over each space's current revision, in the space's language. A merge moves the space
 * to a new root: only the pages that differ from the indexed root are indexed again (their old postings
 * go, their new ones come), so a merge costs what it changed. A new language indexes every page again;
 * a duplicate starts indexed with its source's content. Content objects are read from their own view,
 * where they were stored before the event that names them.
 */
export const searchProjection = {
  ...projection(
    'search',
    [
      { collection: SEARCH_PAGES, fields: ['space'] },
      { collection: SEARCH_POSTINGS, fields: ['id'], clustered: true },
    ],
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
    [SEARCH_POSTINGS, SEARCH_PAGES, SEARCH_INDEXES, EARLIER_POSTINGS],
  ),
  // Views from before the postings moved are indexed again once, from the log.
  backfillWhen: { own: SEARCH_POSTINGS, witnesses: [EARLIER_POSTINGS] },
};

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
  const store = objectsIn(ctx);
  const [before, after] = await Promise.all([readContent(store, index.root), readContent(store, target)]);
  // Postings of another language would match nothing: a new language takes every page out and in again.
  const changes =
    to === from
      ? await diffObjects<PageObject>(store, before.pages, after.pages)
      : await everyPage(store, before, after);
  const documents = new Map<Hash, Document>();
  const indexed = async (page: PageObject | undefined) => {
    if (!page || page.noIndex || (page.type !== 'document' && page.type !== 'group')) return undefined;
    let document = page.documentId ? documents.get(page.documentId) : undefined;
    if (page.documentId && !document) {
      document = (await getDocument(store, page.documentId)) as unknown as Document;
      documents.set(page.documentId, document);
    }
    return pageForIndex(page, document);
  };
  let { pages, totalLength } = index;
  for (const change of changes) {
    const old = await indexed(change.before);
    // A posting the page had and still has, the same, is left where it is: only the others move.
    const kept = new Map<string, string>();
    if (old) {
      const stale = postings(old, from);
      for (const p of stale) kept.set(postingId(space, p, change.id), JSON.stringify(postingDoc(p)));
      await ctx.delete(SEARCH_PAGES, pageKey(space, change.id));
      pages -= 1;
      totalLength -= stale[0]?.length ?? 0;
    }
    const page = await indexed(change.after);
    const list = page ? postings(page, to) : [];
    const fresh = new Map(list.map((p) => [postingId(space, p, change.id), postingDoc(p)]));
    for (const id of kept.keys()) {
      if (!fresh.has(id)) await ctx.delete(SEARCH_POSTINGS, id, SELF_GUARDED);
    }
    for (const [id, doc] of fresh) {
      if (kept.get(id) !== JSON.stringify(doc)) await ctx.put(SEARCH_POSTINGS, { id, ...doc }, SELF_GUARDED);
    }
    if (!page) continue;
    const length = list[0]?.length ?? 0;
    await ctx.put(SEARCH_PAGES, {
      id: pageKey(space, change.id),
      space,
      pageId: change.id,
      title: page.title,
      sections: page.sections,
      length,
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

/** Content objects as the projection reads them: from their view, the empty content without a read. */
function objectsIn(ctx: ProjectionContext): ObjectStore {
  return {
    get: async (hash: Hash) => {
      if (hash === EMPTY_ROOT) return EMPTY_CONTENT;
      const doc = await ctx.get(CONTENT_OBJECTS, hash);
      return doc ? readContentObject(doc, ctx.log) : undefined;
    },
  };
}
