import { COLLECTIONS, type CollectionDoc } from '@app/collections/read/collection.projection';
import { Access, type Viewer } from '@app/platform/auth/access';
import { decodeOffset, offsetPage } from '@app/platform/http/pagination';
import { Urls } from '@app/platform/http/urls';
import { FAN_OUT_LIMIT } from '@app/platform/projector/projection';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { SPACES, type SpaceDoc } from '@app/spaces/read/space.projection';
import { Inject, Injectable } from '@nestjs/common';
import { byRelevance, DEFAULT_LANGUAGE, type RankedPage, TITLE_WEIGHT, terms } from '../domain';
import { type RankedSpace, SearchQueries, type SearchQuery } from './search.queries';

/** Spaces per page of results. */
const DEFAULT_LIMIT = 20;
/** Pages shown per space: its best ones. */
export const PAGES_PER_SPACE = 5;
/**
 * Postings ranked per term and space. Only a space's few best pages are shown, so fewer candidates than a
 * space's own search ranks order them well enough, for a quarter of the work.
 */
const CANDIDATES_PER_TERM = 25;
/** Spaces whose pages one query searches at most (title matches first, then the latest edited). */
export const MAX_SPACES_SEARCHED = 200;
/**
 * Work one query does at most, counted as one read of each space's index document and one term list per
 * distinct term in each space searched (a space's index not yet in memory is read once, whole, then
 * kept): a long query searches fewer spaces rather than costing more.
 */
export const MAX_READS = 1_000;
/** Spaces whose pages are read at the same time. */
const CONCURRENCY = 8;
/** Collections above a space that are looked at, at most (the tree is never that deep). */
const MAX_DEPTH = 100;
/** Analysed titles kept between queries: titles rarely change, and analysing thousands per query costs. */
const TITLE_CACHE_SIZE = 20_000;

/** A space of the result, before its pages are presented. */
interface Candidate {
  space: SpaceDoc;
  /** Distinct query terms in the space's title. */
  titleTerms: number;
  /** The most distinct query terms in the title of a collection above the space (that the caller reaches). */
  collectionTerms: number;
  found: RankedSpace | null;
  /** Its best pages, shown. */
  pages: RankedPage[];
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * GitBook's `searchOrganizationContent`: every space of the organization the caller reaches whose title,
 * or the title of a collection above it, holds a query term, or whose pages match it, with its best pages.
 *
 * Spaces come by title match (more of the query's terms first), then by a matching collection title, then
 * by their best page (as a space's own search ranks pages), then the latest edited. A space's `score` is
 * its best page's score plus `TITLE_WEIGHT` per term its title holds (half that per term of a collection
 * title). A page's `rank` is its position among all pages shown, ranked together as a space's own search
 * ranks them, so it holds across the result's pages and its grouping by space.
 *
 * The work is bounded whatever the organization's size: spaces and collections are read once (up to
 * FAN_OUT_LIMIT each), titles are matched in memory, and the pages of at most MAX_SPACES_SEARCHED spaces
 * are searched, within MAX_READS reads: spaces without content are skipped (they have no index), then
 * those whose title matches come first, then the latest edited. Pages of spaces past that bound are not
 * found (their titles still are). Results are paged by rank, the page token being the offset.
 */
@Injectable()
export class OrganizationSearchQueries {
  private readonly titles = new Map<string, Set<string>>();

  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    private readonly access: Access,
    private readonly spaces: SearchQueries,
    private readonly urls: Urls,
  ) {}

  @Remote(arg.id('organizationId'), arg.object<SearchQuery>('query'), arg.viewer())
  async search(organization: string, query: SearchQuery, viewer: Viewer) {
    const role = await this.access.memberOrGuest(organization, viewer, 'Organization');
    // A bad page token is a 400 even when nothing matches.
    decodeOffset(query.page);
    const [spaces, collections] = await Promise.all([
      this.views.find(SPACES, {
        where: { organization, deleted: false },
        orderBy: 'position',
        limit: FAN_OUT_LIMIT,
      }),
      this.views.find(COLLECTIONS, { where: { organization }, orderBy: 'position', limit: FAN_OUT_LIMIT }),
    ]);
    // An organization admin reaches everything; anyone else, what their effective role opens.
    const reachable =
      role === 'admin'
        ? new Set([...spaces.items, ...collections.items].map((doc) => doc.id))
        : new Set(
            (
              await this.access.contentRoles(
                [...spaces.items, ...collections.items].map((doc) => doc.id),
                viewer,
              )
            ).keys(),
          );
    const wanted = queryTerms(query.query);
    const collectionTerms = this.collectionMatches(
      collections.items.filter((c) => reachable.has(c.id)),
      wanted,
    );
    const candidates = spaces.items
      .filter((space) => reachable.has(space.id))
      .map(
        (space): Candidate => ({
          space,
          titleTerms: this.matches(space.title, wanted, space.language ?? DEFAULT_LANGUAGE),
          collectionTerms: collectionTerms(space.parent),
          found: null,
          pages: [],
        }),
      );
    await this.searchPages(candidates, query.query, wanted);

    const results = candidates
      .filter((c) => c.titleTerms > 0 || c.collectionTerms > 0 || c.pages.length > 0)
      .sort(
        (a, b) =>
          b.titleTerms - a.titleTerms ||
          b.collectionTerms - a.collectionTerms ||
          (a.pages[0] && b.pages[0]
            ? byRelevance(a.pages[0], b.pages[0])
            : b.pages.length - a.pages.length) ||
          compareText(b.space.updatedAt, a.space.updatedAt) ||
          compareText(a.space.id, b.space.id),
      );
    const ranks = pageRanks(results);
    const { items: shown, next } = offsetPage(results, query, DEFAULT_LIMIT);
    const items = await Promise.all(shown.map((candidate) => this.present(candidate, ranks)));
    return { ...next, count: results.length, items };
  }

  /**
   * Searches the pages of the candidates worth it, within the bounds: those with content, title matches
   * first, then the latest edited.
   */
  private async searchPages(candidates: Candidate[], text: string, wanted: QueryTerms): Promise<void> {
    const order = candidates
      .filter((c) => c.space.root !== undefined)
      .sort(
        (a, b) =>
          Number(b.titleTerms > 0 || b.collectionTerms > 0) -
            Number(a.titleTerms > 0 || a.collectionTerms > 0) ||
          compareText(b.space.updatedAt, a.space.updatedAt),
      );
    const chosen: Candidate[] = [];
    let reads = 0;
    for (const candidate of order) {
      // The index document, and one term list per distinct term (as analysed in the space's language).
      const looked = wanted(candidate.space.language ?? DEFAULT_LANGUAGE).size;
      // Nothing to look for in its language (only stop words): its pages cannot match.
      if (looked === 0) continue;
      const cost = 1 + looked;
      if (chosen.length >= MAX_SPACES_SEARCHED || reads + cost > MAX_READS) break;
      chosen.push(candidate);
      reads += cost;
    }
    for (let from = 0; from < chosen.length; from += CONCURRENCY) {
      await Promise.all(
        chosen.slice(from, from + CONCURRENCY).map(async (candidate) => {
          candidate.found = await this.spaces.rank(candidate.space.id, text, CANDIDATES_PER_TERM);
          candidate.pages = candidate.found?.ranked.slice(0, PAGES_PER_SPACE) ?? [];
        }),
      );
    }
  }

  /** For a space's parent, the most query terms the title of a collection above it holds. */
  private collectionMatches(
    collections: CollectionDoc[],
    wanted: QueryTerms,
  ): (parent: string | null) => number {
    const byId = new Map(collections.map((c) => [c.id, c]));
    const own = new Map(collections.map((c) => [c.id, this.matches(c.title, wanted, DEFAULT_LANGUAGE)]));
    const memo = new Map<string, number>();
    return (parent) => {
      if (parent === null) return 0;
      const known = memo.get(parent);
      if (known !== undefined) return known;
      let best = 0;
      // A collection the caller does not reach is not in `byId`: the walk stops there, its title unseen.
      for (let at = byId.get(parent), depth = 0; at && depth < MAX_DEPTH; depth++) {
        best = Math.max(best, own.get(at.id) ?? 0);
        at = at.parent === null ? undefined : byId.get(at.parent);
      }
      memo.set(parent, best);
      return best;
    };
  }

  /** How many distinct query terms a title holds, both analysed in `language`. */
  private matches(title: string, wanted: QueryTerms, language: string): number {
    const looked = wanted(language);
    if (looked.size === 0) return 0;
    const held = this.titleTerms(title, language);
    let count = 0;
    for (const term of looked) if (held.has(term)) count++;
    return count;
  }

  private titleTerms(title: string, language: string): Set<string> {
    const key = `${language}\u0000${title}`;
    let found = this.titles.get(key);
    if (!found) {
      if (this.titles.size >= TITLE_CACHE_SIZE) this.titles.clear();
      found = new Set(terms(title, language));
      this.titles.set(key, found);
    }
    return found;
  }

  private async present(candidate: Candidate, ranks: Map<RankedPage, number>) {
    const { space, found, pages, titleTerms, collectionTerms } = candidate;
    const app = this.urls.app(`/o/${space.organization}/s/${space.id}`);
    return {
      type: 'space' as const,
      id: space.id,
      title: space.title,
      score: (pages[0]?.score ?? 0) + TITLE_WEIGHT * (titleTerms + collectionTerms / 2),
      pages: found
        ? await Promise.all(
            pages.map((page) =>
              this.spaces.present(space.id, found.index.root, page, ranks.get(page) ?? 1, found, app),
            ),
          )
        : [],
    };
  }
}

/** The distinct terms of the query, analysed in a language (each language once). */
type QueryTerms = (language: string) => Set<string>;

function queryTerms(text: string): QueryTerms {
  const byLanguage = new Map<string, Set<string>>();
  return (language) => {
    let found = byLanguage.get(language);
    if (!found) {
      found = new Set(terms(text, language));
      byLanguage.set(language, found);
    }
    return found;
  };
}

/** Each shown page's one-based rank among all the pages shown, ranked together; ties in result order. */
function pageRanks(results: Candidate[]): Map<RankedPage, number> {
  const all = results.flatMap((c, spaceIndex) => c.pages.map((page, i) => ({ page, spaceIndex, i })));
  all.sort((a, b) => byRelevance(a.page, b.page) || a.spaceIndex - b.spaceIndex || a.i - b.i);
  return new Map(all.map(({ page }, i) => [page, i + 1]));
}
