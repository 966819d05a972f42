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
  /** The sections with hits, best first. */
  sections: RankedSection[];
  /** How many distinct query terms the page holds. */
  matchedTerms: number;
  /** Whether a query term is in the page's title (GitBook's `resultType: 'page'`). */
  titleMatch: boolean;
}

/** Term frequency's diminishing return: 1 for one hit, never reaching `K1 + 1`. */
const saturate = (frequency: number) => (frequency * (K1 + 1)) / (frequency + K1);

/** A posting's share of its page's score, before the term's rarity (idf) multiplies it. */
export function impact(posting: Omit<Posting, 'sections'>, averageLength: number): number {
  const lengthRatio = posting.length / (averageLength > 0 ? averageLength : 1);
  return TITLE_WEIGHT * saturate(posting.titleHits) + saturate(posting.bodyHits / (1 - B + B * lengthRatio));
}

const byScore = <T extends { matched: number; score: number; id: string }>(a: T, b: T) =>
  b.matched - a.matched || b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Pages for a query, best first: those holding more of the query's distinct terms first, then by score,
 * then by page id (so equal pages always come in one order). A query term without postings is left out,
 * so the other terms still find their pages. A section scores by its hits alone (its length is unknown).
 * `pagesWithTerm` gives how many pages hold a term when only some of its postings are given (the best).
 */
export function rank(
  queryTerms: readonly string[],
  postingsByTerm: ReadonlyMap<string, readonly Posting[]>,
  stats: IndexStats,
  pagesWithTerm: ReadonlyMap<string, number> = new Map(),
): RankedPage[] {
  const pages = new Map<
    string,
    { id: string; score: number; matched: number; title: boolean; sections: Map<string, ScoredSection> }
  >();
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
        page = { id: posting.pageId, score: 0, matched: 0, title: false, sections: new Map() };
        pages.set(posting.pageId, page);
      }
      page.score += idf * impact(posting, averageLength);
      page.matched++;
      page.title ||= posting.titleHits > 0;
      // In the order of Object.entries (own keys only: a posting's sections are a plain record).
      for (const id in posting.sections) {
        const hits = posting.sections[id];
        if (hits <= 0) continue;
        const section = page.sections.get(id) ?? { id, score: 0, matched: 0 };
        section.score += idf * saturate(hits);
        section.matched++;
        page.sections.set(id, section);
      }
    }
  }
  return [...pages.values()].sort(byScore).map((page) => ({
    pageId: page.id,
    score: page.score,
    sections: [...page.sections.values()].sort(byScore),
    matchedTerms: page.matched,
    titleMatch: page.title,
  }));
}

interface ScoredSection {
  id: string;
  score: number;
  matched: number;
}
