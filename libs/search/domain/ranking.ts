/** Ranking pages for a query from the postings of its terms: BM25, with the title as a field of its own. */
import type { Posting } from './indexing';

/** BM25's usual constants: how fast term frequency saturates, how much page length counts. */
export const K1 = 1.2;
export const B = 0.75;
/**
 * A title hit's weight against a body hit's. Above `K1 + 1`, the most a saturated body can give, so a
 * page whose title holds a term outranks every page that only mentions it in its content.
 */
export const TITLE_WEIGHT = 3;

export interface IndexStats {
  /** Pages in the index (of the space). */
  pages: number;
  /** Their mean `length` (term count). */
  averageLength: number;
}

export interface RankedSection {
  id: string;
  score: number;
  /** How many distinct query terms it holds. */
  matched: number;
}

export interface RankedPage {
  pageId: string;
  score: number;
  /** How many distinct query terms the page holds. */
  matchedTerms: number;
  /** Whether a query term is in the page's title (GitBook's `resultType: 'page'`). */
  titleMatch: boolean;
  /** Each matched term's rarity and hits by section, in term order: what `sectionsOf` ranks. */
  matches: readonly TermMatch[];
}

export interface TermMatch {
  idf: number;
  /** Its hits by section, read only for the pages shown (a posting may build them when asked). */
  posting: Pick<Posting, 'sections'>;
}

/** Term frequency's diminishing return: 1 for one hit, never reaching `K1 + 1`. */
const saturate = (frequency: number) => (frequency * (K1 + 1)) / (frequency + K1);

/** A posting's share of its page's score, before the term's rarity (idf) multiplies it. */
export function impact(
  posting: Pick<Posting, 'titleHits' | 'bodyHits' | 'length'>,
  averageLength: number,
): number {
  const lengthRatio = posting.length / (averageLength > 0 ? averageLength : 1);
  return TITLE_WEIGHT * saturate(posting.titleHits) + saturate(posting.bodyHits / (1 - B + B * lengthRatio));
}

const byScore = (a: RankedSection, b: RankedSection) =>
  b.matched - a.matched || b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const byRank = (a: RankedPage, b: RankedPage) =>
  b.matchedTerms - a.matchedTerms ||
  b.score - a.score ||
  (a.pageId < b.pageId ? -1 : a.pageId > b.pageId ? 1 : 0);

/**
 * Pages for a query, best first: those holding more of the query's distinct terms first, then by score,
 * then by page id (so equal pages always come in one order). A query term without postings is left out,
 * so the other terms still find their pages. `pagesWithTerm` gives how many pages hold a term when only
 * some of its postings are given (the best). Sections are ranked apart (`sectionsOf`), for the pages shown.
 */
export function rank(
  queryTerms: readonly string[],
  postingsByTerm: ReadonlyMap<string, readonly Posting[]>,
  stats: IndexStats,
  pagesWithTerm: ReadonlyMap<string, number> = new Map(),
): RankedPage[] {
  const pages = new Map<string, RankedPage & { matches: TermMatch[] }>();
  const averageLength = stats.averageLength > 0 ? stats.averageLength : 1;
  // Sorted so that scores add up in one order whatever the query's word order.
  for (const term of [...new Set(queryTerms)].sort()) {
    const list = postingsByTerm.get(term) ?? [];
    const pageIds = new Set(list.map((posting) => posting.pageId));
    if (!pageIds.size) continue;
    const holding = Math.max(pagesWithTerm.get(term) ?? 0, pageIds.size);
    // Stats may lag the postings (projected apart): never fewer pages than hold the term.
    const total = Math.max(stats.pages, holding);
    const idf = Math.log(1 + (total - holding + 0.5) / (holding + 0.5));
    for (const posting of list) {
      if (!pageIds.delete(posting.pageId)) continue; // a posting repeated for a page counts once
      let page = pages.get(posting.pageId);
      if (!page) {
        page = { pageId: posting.pageId, score: 0, matchedTerms: 0, titleMatch: false, matches: [] };
        pages.set(posting.pageId, page);
      }
      page.score += idf * impact(posting, averageLength);
      page.matchedTerms++;
      page.titleMatch ||= posting.titleHits > 0;
      page.matches.push({ idf, posting });
    }
  }
  return [...pages.values()].sort(byRank);
}

/** A ranked page's sections that hold hits, best first. A section scores by its hits alone (its length is unknown). */
export function sectionsOf(page: RankedPage): RankedSection[] {
  const sections = new Map<string, RankedSection>();
  for (const { idf, posting } of page.matches) {
    const hitsById = posting.sections;
    // In the order of Object.entries (own keys only: a posting's sections are a plain record).
    for (const id in hitsById) {
      const hits = hitsById[id];
      if (hits <= 0) continue;
      const section = sections.get(id) ?? { id, score: 0, matched: 0 };
      section.score += idf * saturate(hits);
      section.matched++;
      sections.set(id, section);
    }
  }
  return [...sections.values()].sort(byScore);
}
