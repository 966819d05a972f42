/** How a page's postings are stored (one document per page) and in which order a term's postings rank. */
import type { Posting } from './indexing';
import { impact } from './ranking';

/**
 * A page's postings in one flat list, for each term: the term, its title hits, its body hits, how many
 * sections it is in, then for each of those the section's place in the page's `sections` and the hits
 * there. Flat, as read models store lists (no list in a list), and small: a 2 KB page holds about 200 terms.
 */
export type PackedPostings = Array<string | number>;

/** A page's postings as stored, the section ids they name given by place in `sectionIds`. */
export function packPostings(list: readonly Posting[], sectionIds: readonly string[]): PackedPostings {
  const placeOf = new Map(sectionIds.map((id, i) => [id, i]));
  const packed: PackedPostings = [];
  for (const p of list) {
    const sections = Object.keys(p.sections);
    packed.push(p.term, p.titleHits, p.bodyHits, sections.length);
    for (const id of sections) {
      const at = placeOf.get(id);
      if (at === undefined) throw new Error(`posting of "${p.term}" names an unknown section "${id}"`);
      packed.push(at, p.sections[id]);
    }
  }
  return packed;
}

/**
 * Sets a section's hits in a posting's `sections`. `__proto__` (a heading's anchor may be that) is
 * defined as a plain key, as `postings` makes it; the others are assigned, which keeps the object fast.
 */
export function setHits(sections: Record<string, number>, id: string, hits: number): void {
  if (id === '__proto__')
    Object.defineProperty(sections, id, {
      value: hits,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else sections[id] = hits;
}

/** The postings `packPostings` stored, for the page `pageId` of `length` terms. */
export function unpackPostings(
  packed: readonly (string | number)[],
  pageId: string,
  length: number,
  sectionIds: readonly string[],
): Posting[] {
  const list: Posting[] = [];
  for (let i = 0; i < packed.length; ) {
    const term = packed[i] as string;
    const titleHits = packed[i + 1] as number;
    const bodyHits = packed[i + 2] as number;
    const count = packed[i + 3] as number;
    i += 4;
    const sections: Record<string, number> = {};
    for (let n = 0; n < count; n++, i += 2) {
      setHits(sections, sectionIds[packed[i] as number], packed[i + 1] as number);
    }
    list.push({ term, pageId, titleHits, bodyHits, sections, length });
  }
  return list;
}

/**
 * The page length a term's postings are ordered at: about a screen of documentation. Their order does
 * not follow the space's mean length, which moves with every merge: a term's best postings by this
 * order are the candidates ranking reads, which rank them at the mean length.
 */
const ORDER_LENGTH = 300;
/** Impacts are compared to 1/10,000, up to 167 (one is at most about 10). */
const ORDER_SCALE = 10_000;
const ORDER_MAX = 36 ** 4 - 1;

/** A posting's place among its term's: the lower, the better. Ties go by page id. */
export function postingOrder(posting: Pick<Posting, 'titleHits' | 'bodyHits' | 'length'>): number {
  const scaled = Math.round(impact(posting, ORDER_LENGTH) * ORDER_SCALE);
  return ORDER_MAX - Math.min(ORDER_MAX, Math.max(0, scaled));
}
