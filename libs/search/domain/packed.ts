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

/**
 * Numbers as text, five bits a character, low bits first: a character of `MORE` says more follow, one
 * of `LAST` ends the number. Printable, nothing JSON escapes, one byte each as UTF-8.
 */
const LAST = '0123456789abcdefghijklmnopqrstuv';
const MORE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ-_.~+=';
/** A character's digit (0–31), plus 32 for one of `MORE`; -1 for any other. */
const DIGITS = new Int8Array(128).fill(-1);
for (let d = 0; d < 32; d++) {
  DIGITS[LAST.charCodeAt(d)] = d;
  DIGITS[MORE.charCodeAt(d)] = 32 + d;
}

function writeNumber(out: string[], value: number): void {
  let v = value;
  while (v >= 32) {
    out.push(MORE[v % 32]);
    v = Math.floor(v / 32);
  }
  out.push(LAST[v]);
}

/**
 * The positions of a page's postings in one string, in the postings' order: for each, how many, then
 * the first and the gap to each next one. About two characters a position: a 2 KB page's take some
 * 600 bytes, where as numbers in the list they would take four times that.
 */
export function packPositions(list: readonly Posting[]): string {
  const out: string[] = [];
  for (const { positions = [] } of list) {
    writeNumber(out, positions.length);
    let previous = 0;
    for (const position of positions) {
      writeNumber(out, position - previous);
      previous = position;
    }
  }
  return out.join('');
}

/** Where `readNumber` stopped: module state rather than a returned pair, so reading allocates nothing. */
let cursor = 0;

/** The number written at `cursor` of `text` (base-32 digits, a high bit on all but the last); moves on. */
function readNumber(text: string): number {
  let value = 0;
  for (let scale = 1; ; scale *= 32) {
    const digit = DIGITS[text.charCodeAt(cursor++)] ?? -1;
    if (digit < 0) throw new Error(`positions hold "${text[cursor - 1]}" at ${cursor - 1}`);
    value += (digit & 31) * scale;
    if (digit < 32) return value;
  }
}

/**
 * The positions of the posting whose entry starts at `offset` (their count, then the first and each
 * gap), written into `into` as far as it holds them; answers their count and leaves `cursor` after all.
 */
function readEntry(text: string, offset: number, into?: number[] | Int32Array): number {
  cursor = offset;
  const count = readNumber(text);
  let position = 0;
  for (let read = 0; read < count; read++) {
    position += readNumber(text);
    if (into && read < into.length) into[read] = position;
  }
  return count;
}

/** The positions of the posting whose entry starts at `offset` of a page's `packPositions`. */
export function positionsAt(text: string, offset: number): number[] {
  cursor = offset;
  const out = new Array<number>(readNumber(text));
  readEntry(text, offset, out);
  return out;
}

/**
 * The positions of the posting whose entry starts at `offset`, written into `into` (as many as fit);
 * answers how many. Allocates nothing: what looking through many pages for a phrase needs.
 */
export function readPositions(text: string, offset: number, into: Int32Array): number {
  return Math.min(readEntry(text, offset, into), into.length);
}

/** Where the next posting's positions start, after those that start at `offset`. */
export function skipPositions(text: string, offset: number): number {
  readEntry(text, offset);
  return cursor;
}

/**
 * The postings `packPostings` stored, for the page `pageId` of `length` terms, with their positions if
 * `packPositions` stored them too.
 */
export function unpackPostings(
  packed: readonly (string | number)[],
  pageId: string,
  length: number,
  sectionIds: readonly string[],
  positions?: string,
): Posting[] {
  const list: Posting[] = [];
  let offset = 0;
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
    if (positions === undefined) list.push({ term, pageId, titleHits, bodyHits, sections, length });
    else {
      list.push({
        term,
        pageId,
        titleHits,
        bodyHits,
        sections,
        length,
        positions: positionsAt(positions, offset),
      });
      offset = skipPositions(positions, offset);
    }
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
