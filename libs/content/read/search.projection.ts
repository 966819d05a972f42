import { type ProjectionContext, projection } from '@app/platform/projector/projection';
import { collectionName, type Doc } from '@app/platform/readstore/read-store.port';
import type { Document } from '../domain/document';
import { type IndexedSection, pageForIndex, postings } from '../domain/search';
import { EMPTY_CONTENT, readContent } from '../domain/tree/content';
import { diffObjects } from '../domain/tree/diff';
import type { Hash } from '../domain/tree/hash';
import type { ObjectStore } from '../domain/tree/objects';
import type { PageObject } from '../domain/tree/page';
import { getDocument } from '../domain/tree/page-tree';
import { CONTENT_OBJECTS, EMPTY_ROOT } from './content-objects';

/** One term of one page of a space's current revision. */
export interface PostingDoc extends Doc {
  space: string;
  term: string;
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

/** A space's index: the revision root it holds, and what ranking needs of the whole. */
export interface SearchIndexDoc extends Doc {
  root: Hash;
  pages: number;
  totalLength: number;
}

export const SEARCH_POSTINGS = collectionName<PostingDoc>('search_postings');
export const SEARCH_PAGES = collectionName<SearchPageDoc>('search_pages');
export const SEARCH_INDEXES = collectionName<SearchIndexDoc>('search_indexes');

/** Languages come with translation settings; until then every space is searched as English. */
export const SEARCH_LANGUAGE = 'en';

const postingId = (space: string, term: string, pageId: string) => `${space}:${term}:${pageId}`;
const pageKey = (space: string, pageId: string) => `${space}:${pageId}`;

/**
 * Full-text search over each space's current revision. A merge moves the space to a new root: only the
 * pages that differ from the indexed root are indexed again (their old postings go, their new ones come),
 * so a merge costs what it changed. Content objects are read from their own view, where they were
 * stored before the merge that names them.
 */
export const searchProjection = projection(
  'search',
  [
    { collection: SEARCH_POSTINGS, fields: ['space', 'term'] },
    { collection: SEARCH_PAGES, fields: ['space'] },
  ],
  {
    ChangeRequestMerged: async (e, ctx) => {
      const { spaceId, revision } = e.data;
      await reindex(ctx, spaceId, revision.root);
    },
    SpacePurged: async (e, ctx) => {
      await reindex(ctx, e.data.spaceId, EMPTY_ROOT);
      await ctx.delete(SEARCH_INDEXES, e.data.spaceId);
    },
  },
  [SEARCH_POSTINGS, SEARCH_PAGES, SEARCH_INDEXES],
);

async function reindex(ctx: ProjectionContext, space: string, root: Hash): Promise<void> {
  const index = (await ctx.get(SEARCH_INDEXES, space)) ?? {
    id: space,
    root: EMPTY_ROOT,
    pages: 0,
    totalLength: 0,
  };
  if (index.root === root) return;
  const store = objectsIn(ctx);
  const [before, after] = await Promise.all([readContent(store, index.root), readContent(store, root)]);
  let { pages, totalLength } = index;
  for (const change of await diffObjects<PageObject>(store, before.pages, after.pages)) {
    const old = await ctx.get(SEARCH_PAGES, pageKey(space, change.id));
    if (old) {
      // The page's postings again from its stored text (analysis is deterministic), rather than a query.
      const stale = postings(
        { pageId: change.id, title: old.title, sections: old.sections },
        SEARCH_LANGUAGE,
      );
      for (const { term } of stale) await ctx.delete(SEARCH_POSTINGS, postingId(space, term, change.id));
      await ctx.delete(SEARCH_PAGES, old.id);
      pages -= 1;
      totalLength -= old.length;
    }
    const page = change.after;
    if (!page || page.noIndex || (page.type !== 'document' && page.type !== 'group')) continue;
    const document = page.documentId
      ? ((await getDocument(store, page.documentId)) as unknown as Document)
      : undefined;
    const indexed = pageForIndex(page, document);
    const list = postings(indexed, SEARCH_LANGUAGE);
    const length = list[0]?.length ?? 0;
    for (const p of list) {
      await ctx.put(SEARCH_POSTINGS, {
        id: postingId(space, p.term, page.id),
        space,
        term: p.term,
        pageId: page.id,
        titleHits: p.titleHits,
        bodyHits: p.bodyHits,
        sections: Object.entries(p.sections).map(([id, hits]) => ({ id, hits })),
        length: p.length,
      });
    }
    await ctx.put(SEARCH_PAGES, {
      id: pageKey(space, page.id),
      space,
      pageId: page.id,
      title: page.title,
      sections: indexed.sections,
      length,
    });
    pages += 1;
    totalLength += length;
  }
  await ctx.put(SEARCH_INDEXES, { id: space, root, pages, totalLength });
}

/** Content objects as the projection reads them: from their view, the empty content without a read. */
function objectsIn(ctx: ProjectionContext): ObjectStore {
  return {
    get: async (hash: Hash) => {
      if (hash === EMPTY_ROOT) return EMPTY_CONTENT;
      const doc = await ctx.get(CONTENT_OBJECTS, hash);
      return doc ? JSON.parse(doc.json) : undefined;
    },
  };
}
