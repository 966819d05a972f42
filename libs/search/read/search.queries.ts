import { ContentObjectStore } from '@app/content/content.api';
import type { Hash } from '@app/documents/tree/hash';
import { Access, type Viewer } from '@app/platform/auth/access';
import { notFound } from '@app/platform/domain/decider';
import { decodeOffset, type ListQuery, offsetPage } from '@app/platform/http/pagination';
import { Urls } from '@app/platform/http/urls';
import { VIEW_CHANGES, type ViewChanges } from '@app/platform/projector/view-changes';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { SPACES } from '@app/spaces/read/space.projection';
import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  type Candidates,
  candidatesFor,
  quotedPhrases,
  type RankedPage,
  rank,
  SNIPPET_LENGTH,
  sectionsOf,
  snippetOf,
  terms,
} from '../domain';
import { indexLanguage, SEARCH_INDEXES, SEARCH_PAGES, type SearchIndexDoc } from './search.projection';
import { AnalysedTexts, KeptPages } from './search-memory';
import { SpaceIndexes } from './space-indexes';

export interface SearchQuery extends ListQuery {
  query: string;
}

const DEFAULT_LIMIT = 20;
/**
 * Postings read per query term: its best by impact. A term in more pages ranks only those (how many pages
 * hold it still counts, for its rarity), so a query costs the same in a space of any size.
 */
export const CANDIDATES_PER_TERM = 100;
/** Sections shown per page: the best ones. */
const SECTIONS_SHOWN = 3;

/** A space's pages ranked for a query, with what presenting them needs. */
export interface RankedSpace {
  index: SearchIndexDoc;
  /** The query's terms, analysed in the index's language. */
  wanted: string[];
  language: string;
  ranked: RankedPage[];
  /** How many pages hold each term: at least as many as its postings read. */
  holding: Map<string, number>;
  /** Whether the query quotes a phrase: pages without it are left out, so fewer than `holding` match. */
  quoted: boolean;
}

/**
 * Search in a space's current revision: the query's terms (analysed as the index analysed the pages, in
 * the space's language), their postings, BM25 ranking; pages come with their best sections and an
 * excerpt of each. Pages are paged by rank (the page token is the offset in the ranked list).
 */
@Injectable()
export class SearchQueries {
  private readonly indexes: SpaceIndexes;
  private readonly pages: KeptPages;
  private readonly texts = new AnalysedTexts();

  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    private readonly access: Access,
    objects: ContentObjectStore,
    private readonly urls: Urls,
    @Optional() @Inject(VIEW_CHANGES) changes?: ViewChanges,
  ) {
    this.indexes = new SpaceIndexes(views, objects, changes);
    this.pages = new KeptPages(objects);
  }

  /**
   * The pages of a space's index ranked for `text`, from the best `candidates` postings of each term
   * and the pages holding its words in sequence (in the space's index in memory); null when nothing can
   * match (no index, no pages, no term in the query). A phrase quoted in `text` must be in a page, its
   * words one after the other (as analysed: `"rotate the tokens"` finds "rotating tokens").
   */
  async rank(spaceId: string, text: string, candidates = CANDIDATES_PER_TERM): Promise<RankedSpace | null> {
    const index = await this.views.get(SEARCH_INDEXES, spaceId);
    // Analysed as the pages were: in the language of the space's index.
    const language = indexLanguage(index);
    const wanted = terms(text, language);
    if (!index || index.pages === 0 || wanted.length === 0) return null;
    const phrases = quotedPhrases(text, language);
    const { byTerm, holding }: Candidates = await this.indexes.with(spaceId, index, (postings) =>
      candidatesFor(postings, wanted, candidates, phrases),
    );
    const ranked = rank(
      wanted,
      byTerm,
      { pages: index.pages, averageLength: index.totalLength / index.pages },
      holding,
      { phrases },
    );
    return { index, wanted, language, ranked, holding, quoted: phrases.length > 0 };
  }

  @Remote(arg.id('spaceId'), arg.object<SearchQuery>('query'), arg.viewer())
  async search(spaceId: string, query: SearchQuery, viewer: Viewer) {
    const space = await this.views.get(SPACES, spaceId);
    if (!space) throw notFound('Space not found');
    await this.access.content(spaceId, viewer, 'Space');
    // A bad page token is a 400 even when there is nothing to search.
    decodeOffset(query.page);
    const found = await this.rank(spaceId, query.query);
    if (!found) return { count: 0, items: [] };
    const { index, wanted, language, ranked, holding, quoted } = found;
    const { offset, items: shown, next } = offsetPage(ranked, query, DEFAULT_LIMIT);
    const app = this.urls.app(`/o/${space.organization}/s/${spaceId}`);
    const items = await Promise.all(
      shown.map((result, i) =>
        this.present(spaceId, index.root, result, offset + i + 1, { wanted, language }, app),
      ),
    );
    // Past the candidates read, the pages holding the most common term are at least as many (unless a
    // quoted phrase leaves some out: then those found).
    const count = quoted ? ranked.length : Math.max(ranked.length, ...holding.values());
    return { ...next, count, items };
  }

  /** One ranked page of a space as a `SearchPageResult`, at `position` in its result list. */
  async present(
    spaceId: string,
    root: Hash,
    result: RankedPage,
    position: number,
    { wanted, language }: { wanted: string[]; language: string },
    app: string,
  ) {
    const [page, stored] = await Promise.all([
      this.pages.page(root, result.pageId),
      this.views.get(SEARCH_PAGES, `${spaceId}:${result.pageId}`),
    ]);
    const path = page?.path ?? '';
    const pageUrl = `${app}/page/${result.pageId}`;
    return {
      id: result.pageId,
      title: page?.title ?? stored?.title ?? '',
      description: page?.description ?? '',
      path,
      score: result.score,
      rank: position,
      resultType: result.titleMatch ? ('page' as const) : ('section' as const),
      sections: sectionsOf(result)
        .slice(0, SECTIONS_SHOWN)
        .map((ranked) => {
          const section = stored?.sections.find((s) => s.id === ranked.id);
          return {
            id: ranked.id,
            title: section?.title || (page?.title ?? ''),
            path: ranked.id ? `${path}#${ranked.id}` : path,
            score: ranked.score,
            resultType: 'section' as const,
            body: snippetOf(
              this.texts.of(section?.body ?? '', language),
              wanted,
              SNIPPET_LENGTH,
              ranked.matched,
            ),
            urls: { app: ranked.id ? `${pageUrl}#${ranked.id}` : pageUrl },
          };
        }),
      ancestors: await this.pages.ancestors(root, page),
      urls: { app: pageUrl },
    };
  }
}
