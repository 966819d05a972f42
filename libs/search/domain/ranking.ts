/**
 * Ranking pages for a query from the postings of its terms: BM25, with the title as a field of its own,
 * and the query's words in sequence or close together in a page above the same words apart.
 */
import type { Posting } from './indexing';

/** BM25's usual constants: how fast term frequency saturates, how much page length counts. */
export const K1 = 1.2;
export const B = 0.75;
/**
 * A title hit's weight against a body hit's. Above `K1 + 1`, the most a saturated body can give, so a
 * page whose title holds a term outranks every page that only mentions it in its content.
 */
export const TITLE_WEIGHT = 3;
/** Distance up to which two query words count as close (1: one right after the other). */
export const PROXIMITY_WINDOW = 5;
/**
 * A pair of query words one right after the other adds as much as a term of the rarer of the two found
 * once in a page of mean length; further apart, a share of it falling with the square of the distance.
 */
export const PROXIMITY_WEIGHT = 1;

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
  /**
   * The most of the query's terms the page holds one after the other, in the query's order (1 when none
   * are in sequence, or when the page's positions are unknown): pages with more come first, after those
   * holding more distinct terms.
   */
  phrase: number;
  /** Whether a query term is in the page's title (GitBook's `resultType: 'page'`). */
  titleMatch: boolean;
  /** Each matched term's rarity and hits by section, in term order: what `sectionsOf` ranks. */
  matches: readonly TermMatch[];
}

export interface TermMatch {
  term: string;
  idf: number;
  /**
   * Its hits by section, read only for the pages shown, and its positions, read only for pages holding
   * more than one query term (a posting may build them when asked).
   */
  posting: Pick<Posting, 'sections' | 'positions'>;
}

/** Options of `rank`. */
export interface RankOptions {
  /**
   * Sequences of terms a page must hold one after the other (a quoted phrase's terms), or hold at all
   * for a sequence of one term; pages without are left out.
   */
  phrases?: readonly (readonly string[])[];
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

/** The order of pages for a query, page id aside: more distinct terms, then more in sequence, then score. */
export const byRelevance = (a: RankedPage, b: RankedPage) =>
  b.matchedTerms - a.matchedTerms || b.phrase - a.phrase || b.score - a.score;

const byRank = (a: RankedPage, b: RankedPage) =>
  byRelevance(a, b) || (a.pageId < b.pageId ? -1 : a.pageId > b.pageId ? 1 : 0);

/** Whether ascending `sorted` holds `value`. */
function holds(sorted: readonly number[], value: number): boolean {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle] === value) return true;
    if (sorted[middle] < value) low = middle + 1;
    else high = middle;
  }
  return false;
}

/** The first place in ascending `sorted` whose value is above `value`. */
function above(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle] <= value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Whether a page holds a sequence of terms one after the other, given the positions of each of the
 * sequence's terms in the page (the same for a term repeated in the sequence).
 */
export function holdsSequence(positions: readonly (readonly number[] | undefined)[]): boolean {
  const [first, ...rest] = positions;
  if (!first) return false;
  if (rest.some((list) => !list)) return false;
  return first.some((at) => rest.every((list, i) => holds(list as readonly number[], at + i + 1)));
}

/** The most terms of a sequence a page holds one after the other (positions as `holdsSequence` takes them). */
export function longestRun(positions: readonly (readonly number[] | undefined)[]): number {
  let best = 0;
  for (let i = 0; i < positions.length && best < positions.length - i; i++) {
    const first = positions[i];
    if (!first?.length) continue;
    best = Math.max(best, 1);
    for (const at of first) {
      let n = 1;
      for (let next = positions[i + n]; next && holds(next, at + n); next = positions[i + n]) n++;
      best = Math.max(best, n);
      if (best === positions.length - i) break;
    }
  }
  return best;
}

/**
 * How close two terms are in a page, the first's positions `a` and the second's `b`: for each
 * occurrence of the first, 1/d² for the nearest of the second within `PROXIMITY_WINDOW`, d the distance
 * when it comes after, one more when before (the query's order counts).
 */
export function closeness(a: readonly number[], b: readonly number[]): number {
  let sum = 0;
  for (const at of a) {
    const k = above(b, at);
    let d = Number.POSITIVE_INFINITY;
    if (k < b.length) d = b[k] - at;
    if (k > 0 && b[k - 1] < at) d = Math.min(d, at - b[k - 1] + 1);
    if (d <= PROXIMITY_WINDOW) sum += 1 / (d * d);
  }
  return sum;
}

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
  options: RankOptions = {},
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
        page = {
          pageId: posting.pageId,
          score: 0,
          matchedTerms: 0,
          phrase: 1,
          titleMatch: false,
          matches: [],
        };
        pages.set(posting.pageId, page);
      }
      page.score += idf * impact(posting, averageLength);
      page.matchedTerms++;
      page.titleMatch ||= posting.titleHits > 0;
      page.matches.push({ term, idf, posting });
    }
  }
  // The query's words in its order, those no page holds left out (as they are from the scores).
  const sequence = queryTerms.filter((term) => postingsByTerm.get(term)?.length);
  const required = options.phrases ?? [];
  const ranked: RankedPage[] = [];
  for (const page of pages.values()) {
    if (page.matchedTerms > 1) {
      const byTerm = new Map(page.matches.map((match) => [match.term, match]));
      const positions = sequence.map((term) => byTerm.get(term)?.posting.positions);
      page.phrase = Math.max(1, longestRun(positions));
      page.score += PROXIMITY_WEIGHT * proximity(sequence, byTerm);
    }
    if (required.every((phrase) => holdsPhrase(page, phrase))) ranked.push(page);
  }
  return ranked.sort(byRank);
}

/** What the query's pairs of consecutive words add for being close in a page (see `closeness`). */
function proximity(sequence: readonly string[], byTerm: ReadonlyMap<string, TermMatch>): number {
  let score = 0;
  for (let i = 0; i + 1 < sequence.length; i++) {
    if (sequence[i] === sequence[i + 1]) continue;
    const a = byTerm.get(sequence[i]);
    const b = byTerm.get(sequence[i + 1]);
    const [from, to] = [a?.posting.positions, b?.posting.positions];
    if (!a || !b || !from || !to) continue;
    const close = closeness(from, to);
    if (close > 0) score += Math.min(a.idf, b.idf) * saturate(close);
  }
  return score;
}

/** Whether a ranked page holds a phrase's terms one after the other (a phrase of one term: that term). */
function holdsPhrase(page: RankedPage, phrase: readonly string[]): boolean {
  const positions = phrase.map((term) => page.matches.find((match) => match.term === term)?.posting);
  if (positions.some((posting) => !posting)) return false;
  return phrase.length < 2 || holdsSequence(positions.map((posting) => posting?.positions));
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
