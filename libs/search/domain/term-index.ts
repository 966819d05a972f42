/**
 * An inverted index of one space's pages in memory: each term's postings, best first. Held in typed
 * arrays rather than an object per posting: a space of 10,000 pages holds about two million postings,
 * which as objects (about 200 bytes each, with their hits by section) took B12's server to 2.9 GB and its
 * p99 past 50 ms; here they cost about 40 bytes, in arrays the garbage collector does not walk.
 */
import { MAX_POSITIONS, type Posting } from './indexing';
import {
  type PackedPostings,
  positionsAt,
  postingOrder,
  readPositions,
  setHits,
  skipPositions,
} from './packed';

/** Whether the first `count` of ascending `list` hold `value`. */
function holdsAt(list: Int32Array, count: number, value: number): boolean {
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const v = list[middle];
    if (v === value) return true;
    if (v < value) low = middle + 1;
    else high = middle;
  }
  return false;
}

/**
 * Whether a page holds a sequence one word after the other (as `holdsSequence`, without allocating):
 * `place` gives each of its words' buffer, where the first `counts` are the word's positions.
 */
function inSequence(place: readonly number[], buffers: readonly Int32Array[], counts: Int32Array): boolean {
  const first = buffers[place[0]];
  for (let k = 0; k < counts[place[0]]; k++) {
    let j = 1;
    while (j < place.length && holdsAt(buffers[place[j]], counts[place[j]], first[k] + j)) j++;
    if (j === place.length) return true;
  }
  return false;
}

/** A term's best postings, and how many pages hold it. */
export interface TermPostings {
  count: number;
  postings: readonly Posting[];
}

/** A page's postings as its stored document holds them (see `packPostings`). */
export interface PageTerms {
  pageId: string;
  length: number;
  sectionIds: readonly string[];
  postings: PackedPostings;
  /** Their positions (see `packPositions`); absent in documents stored before positions were. */
  positions?: string;
}

/** Pages holding a phrase: how many of those looked at, and the postings of its terms in the first ones. */
export interface PhrasePostings {
  count: number;
  postings: Map<string, Posting[]>;
}

/** A page as the index keeps it: its postings as numbers (see `TermIndex`). */
interface KeptPage {
  pageId: string;
  length: number;
  sectionIds: readonly string[];
  data: Int32Array;
  /** Its postings' positions as stored, read only for the pages a phrase is looked for in. */
  positions: string;
  /** Where each of its entries starts in `data`, by term number: to find a term's entry. */
  byTerm: Int32Array;
}

/** Numbers an entry starts with: term, title hits, body hits, section count, where its positions start. */
const ENTRY = 5;

/**
 * A posting read from the index. Its hits by section become an object only when asked for: ranking
 * asks for those of the pages shown alone, and section ids are heading anchors, so such objects have
 * shapes of their own and cost more to build than the rest of the posting.
 */
class IndexedPosting implements Posting {
  readonly pageId: string;
  readonly titleHits: number;
  readonly bodyHits: number;
  readonly length: number;
  #sections?: Record<string, number>;
  #positions?: readonly number[];

  readonly #page: KeptPage;
  readonly #at: number;

  constructor(
    readonly term: string,
    page: KeptPage,
    at: number,
  ) {
    this.#page = page;
    this.#at = at;
    this.pageId = page.pageId;
    this.titleHits = page.data[at + 1];
    this.bodyHits = page.data[at + 2];
    this.length = page.length;
  }

  get sections(): Record<string, number> {
    if (this.#sections) return this.#sections;
    const { data, sectionIds } = this.#page;
    const sections: Record<string, number> = {};
    for (let n = 0, k = this.#at + ENTRY; n < data[this.#at + 3]; n++, k += 2)
      setHits(sections, sectionIds[data[k]], data[k + 1]);
    this.#sections = sections;
    return sections;
  }

  /** Read from the page's stored positions when asked for; undefined where none were stored. */
  get positions(): readonly number[] | undefined {
    if (this.#positions) return this.#positions;
    const offset = this.#page.data[this.#at + 4];
    if (offset < 0) return undefined;
    this.#positions = positionsAt(this.#page.positions, offset);
    return this.#positions;
  }
}

/** One term's postings, sorted by `order` then page id: the page's slot and where its entry starts. */
class TermList {
  order: Float64Array;
  slot: Int32Array;
  at: Int32Array;
  size = 0;

  constructor(capacity: number) {
    this.order = new Float64Array(capacity);
    this.slot = new Int32Array(capacity);
    this.at = new Int32Array(capacity);
  }

  /** Room for `n` more, at least doubling when it grows. */
  reserve(n: number): void {
    if (this.size + n <= this.order.length) return;
    const capacity = Math.max(this.size + n, this.order.length * 2, 4);
    const grow = <A extends Float64Array | Int32Array>(from: A, to: A) => {
      to.set(from.subarray(0, this.size));
      return to;
    };
    this.order = grow(this.order, new Float64Array(capacity));
    this.slot = grow(this.slot, new Int32Array(capacity));
    this.at = grow(this.at, new Int32Array(capacity));
  }
}

/**
 * Postings by term, each term's in `postingOrder` (ties by page id), and by page, to replace a page's.
 * Built at once from every page (`TermIndex.of`), then changed a page at a time (`set`). A page is kept
 * as numbers: for each of its terms the term's number, title hits, body hits, section count, where its
 * positions start in the page's positions text (-1: none), then a (section place, hits) pair per section;
 * a term list entry points into it.
 */
export class TermIndex {
  private readonly termIds = new Map<string, number>();
  private readonly terms: string[] = [];
  private readonly lists: TermList[] = [];
  private readonly slots = new Map<string, number>();
  private readonly free: number[] = [];
  private readonly pages: KeptPage[] = [];
  private count = 0;
  /** Each term's changes so far, by term number: what tells a kept copy of its postings stale. */
  private readonly changed: number[] = [];

  /** The index of these pages: each term's list sorted once, rather than kept sorted page by page. */
  static of(pages: Iterable<PageTerms>): TermIndex {
    const index = new TermIndex();
    const added: number[] = [];
    for (const page of pages) {
      if (index.slots.has(page.pageId)) throw new Error(`page ${page.pageId} is indexed already`);
      added.push(index.store(page));
    }
    // Sized exactly, then filled and sorted.
    const filled = index.lists.map((list) => {
      const size = list.size;
      list.size = 0;
      list.reserve(size);
      return list;
    });
    for (const slot of added) {
      index.forEachEntry(slot, (termId, at, order) => {
        const list = filled[termId];
        list.order[list.size] = order;
        list.slot[list.size] = slot;
        list.at[list.size] = at;
        list.size++;
      });
    }
    for (const list of filled) index.sort(list);
    return index;
  }

  /** Postings held, over every term. */
  get size(): number {
    return this.count;
  }

  /** Replaces the postings of the page `pageId` with `page`'s (absent: takes the page out). */
  set(pageId: string, page: PageTerms | undefined): void {
    if (page && page.pageId !== pageId) throw new Error(`postings of ${page.pageId} given for ${pageId}`);
    const old = this.slots.get(pageId);
    if (old !== undefined) this.remove(old);
    if (!page) return;
    const slot = this.store(page);
    this.forEachEntry(slot, (termId, at, order) => {
      const list = this.lists[termId];
      list.size--; // counted by `store`: placed now
      list.reserve(1);
      const place = this.placeOf(list, order, pageId);
      list.order.copyWithin(place + 1, place, list.size);
      list.slot.copyWithin(place + 1, place, list.size);
      list.at.copyWithin(place + 1, place, list.size);
      list.order[place] = order;
      list.slot[place] = slot;
      list.at[place] = at;
      list.size++;
    });
  }

  /** The best `candidates` postings of `term`, and how many pages hold it. */
  postings(term: string, candidates: number): TermPostings {
    const termId = this.termIds.get(term);
    const list = termId === undefined ? undefined : this.lists[termId];
    if (!list?.size) return { count: 0, postings: [] };
    const postings: Posting[] = [];
    for (let i = 0; i < Math.min(candidates, list.size); i++)
      postings.push(new IndexedPosting(term, this.pages[list.slot[i]], list.at[i]));
    return { count: list.size, postings };
  }

  /**
   * Pages holding `sequence`'s terms one after the other (as `holdsSequence` reads their positions): of
   * the first `scan` pages of its rarest term's list (its best), how many, and the postings of its terms
   * in the first `limit` of those. Found where the term lists' best postings would miss them: a sequence
   * of common words is rare when its words are not.
   */
  phrase(sequence: readonly string[], limit: number, scan: number): PhrasePostings {
    const none: PhrasePostings = { count: 0, postings: new Map() };
    if (sequence.length < 2) return none;
    const ids: number[] = [];
    for (const term of sequence) {
      const id = this.termIds.get(term);
      if (id === undefined || !this.lists[id].size) return none;
      ids.push(id);
    }
    const distinct = [...new Set(ids)];
    const place = ids.map((id) => distinct.indexOf(id));
    const driver = distinct.reduce((a, b) => (this.lists[b].size < this.lists[a].size ? b : a));
    const list = this.lists[driver];
    const found: Array<{ page: KeptPage; ats: number[] }> = [];
    let count = 0;
    const ats: number[] = new Array(distinct.length);
    // Each distinct term's positions in the page looked at, read into buffers of its own.
    const buffers = distinct.map(() => new Int32Array(MAX_POSITIONS));
    const counts = new Int32Array(distinct.length);
    for (let i = 0; i < Math.min(scan, list.size); i++) {
      const page = this.pages[list.slot[i]];
      let held = true;
      for (let d = 0; d < distinct.length && held; d++) {
        const at = distinct[d] === driver ? list.at[i] : this.entryOf(page, distinct[d]);
        held = at >= 0 && page.data[at + 4] >= 0;
        ats[d] = at;
      }
      if (!held) continue;
      for (let d = 0; d < distinct.length; d++)
        counts[d] = readPositions(page.positions, page.data[ats[d] + 4], buffers[d]);
      if (!inSequence(place, buffers, counts)) continue;
      count++;
      if (found.length < limit) found.push({ page, ats: [...ats] });
    }
    const postings = new Map<string, Posting[]>();
    distinct.forEach((id, d) => {
      postings.set(
        this.terms[id],
        found.map(({ page, ats }) => new IndexedPosting(this.terms[id], page, ats[d])),
      );
    });
    return { count, postings };
  }

  /** Where the entry of the term numbered `termId` starts in the page's data; -1 when it has none. */
  private entryOf(page: KeptPage, termId: number): number {
    const { byTerm, data } = page;
    let low = 0;
    let high = byTerm.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const id = data[byTerm[middle]];
      if (id === termId) return byTerm[middle];
      if (id < termId) low = middle + 1;
      else high = middle;
    }
    return -1;
  }

  /** How many times the postings of `term` changed (any number when it never had any): a version of them. */
  changes(term: string): number {
    const termId = this.termIds.get(term);
    return termId === undefined ? -1 : this.changed[termId];
  }

  /** Keeps `page` as numbers in a slot of its own; its terms' lists count it, not yet placed. */
  private store(page: PageTerms): number {
    const packed = page.postings;
    const positions = page.positions;
    let entries = 0;
    for (let i = 0; i < packed.length; i += 4 + 2 * (packed[i + 3] as number)) entries++;
    // One more number an entry than stored: where its positions start in `positions`.
    const data = new Int32Array(packed.length + entries);
    const starts = new Int32Array(entries);
    let offset = 0;
    for (let i = 0, to = 0, n = 0; i < packed.length; n++) {
      const term = packed[i] as string;
      let termId = this.termIds.get(term);
      if (termId === undefined) {
        termId = this.terms.length;
        this.termIds.set(term, termId);
        this.terms.push(term);
        this.lists.push(new TermList(0));
        this.changed.push(0);
      }
      const sections = packed[i + 3] as number;
      starts[n] = to;
      data[to] = termId;
      data[to + 1] = packed[i + 1] as number;
      data[to + 2] = packed[i + 2] as number;
      data[to + 3] = sections;
      data[to + 4] = positions === undefined ? -1 : offset;
      if (positions !== undefined) offset = skipPositions(positions, offset);
      for (let k = 0; k < 2 * sections; k++) data[to + ENTRY + k] = packed[i + 4 + k] as number;
      i += 4 + 2 * sections;
      to += ENTRY + 2 * sections;
    }
    starts.sort((a, b) => data[a] - data[b]);
    const slot = this.free.pop() ?? this.pages.length;
    this.pages[slot] = {
      pageId: page.pageId,
      length: page.length,
      sectionIds: page.sectionIds,
      data,
      positions: positions ?? '',
      byTerm: starts,
    };
    this.slots.set(page.pageId, slot);
    this.forEachEntry(slot, (termId) => {
      this.lists[termId].size++;
      this.count++;
      this.changed[termId]++;
    });
    return slot;
  }

  private remove(slot: number): void {
    const { pageId } = this.pages[slot];
    this.forEachEntry(slot, (termId, _at, order) => {
      const list = this.lists[termId];
      const place = this.placeOf(list, order, pageId);
      list.order.copyWithin(place, place + 1, list.size);
      list.slot.copyWithin(place, place + 1, list.size);
      list.at.copyWithin(place, place + 1, list.size);
      list.size--;
      this.count--;
      this.changed[termId]++;
    });
    this.slots.delete(pageId);
    this.free.push(slot);
  }

  /** Each term entry of the page in `slot`: its term's number, where it starts, and its posting's order. */
  private forEachEntry(slot: number, visit: (termId: number, at: number, order: number) => void): void {
    const { data, length } = this.pages[slot];
    for (let at = 0; at < data.length; at += ENTRY + 2 * data[at + 3]) {
      visit(data[at], at, postingOrder({ titleHits: data[at + 1], bodyHits: data[at + 2], length }));
    }
  }

  /** The first place in `list` whose entry does not come before (`order`, `pageId`). */
  private placeOf(list: TermList, order: number, pageId: string): number {
    let low = 0;
    let high = list.size;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const o = list.order[middle];
      const before = o < order || (o === order && this.pages[list.slot[middle]].pageId < pageId);
      if (before) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Sorts a list filled in any order. */
  private sort(list: TermList): void {
    const n = list.size;
    const ids = (i: number) => this.pages[list.slot[i]].pageId;
    const byPlace = Array.from({ length: n }, (_, i) => i).sort(
      (a, b) => list.order[a] - list.order[b] || (ids(a) < ids(b) ? -1 : ids(a) > ids(b) ? 1 : 0),
    );
    const order = list.order.slice(0, n);
    const slot = list.slot.slice(0, n);
    const at = list.at.slice(0, n);
    byPlace.forEach((from, to) => {
      list.order[to] = order[from];
      list.slot[to] = slot[from];
      list.at[to] = at[from];
    });
  }
}

/** What a query reads of a space's index: its terms' best postings, and pages holding a phrase. */
export interface TermSource {
  postings(term: string, candidates: number): TermPostings;
  phrase(sequence: readonly string[], limit: number, scan: number): PhrasePostings;
}

/** Pages holding a query's words in sequence read at most, past its terms' best postings. */
export const PHRASE_CANDIDATES = 50;
/**
 * Pages of a phrase's rarest term looked through for the phrase, at most (its best first): a phrase of
 * words that are all in most pages of a large space is looked for in some of them only.
 */
export const PHRASE_SCAN = 500;

/** The postings a query ranks from, and how many pages hold each term. */
export interface Candidates {
  byTerm: Map<string, readonly Posting[]>;
  holding: Map<string, number>;
}

/**
 * What ranking `wanted` (a query's terms, in order) reads: each term's best `candidates` postings, then
 * the postings of the pages holding its words in sequence (those that hold no page left out), and of
 * those holding each of `phrases` (quoted in the query), which the best postings may miss.
 */
export function candidatesFor(
  source: TermSource,
  wanted: readonly string[],
  candidates: number,
  phrases: readonly (readonly string[])[] = [],
): Candidates {
  const byTerm = new Map<string, readonly Posting[]>();
  const holding = new Map<string, number>();
  for (const term of new Set(wanted)) {
    const found = source.postings(term, candidates);
    holding.set(term, found.count);
    byTerm.set(term, found.postings);
  }
  const sequence = wanted.filter((term) => (holding.get(term) ?? 0) > 0);
  for (const phrase of [sequence, ...phrases]) {
    if (new Set(phrase).size < 2) continue;
    const found = source.phrase(phrase, PHRASE_CANDIDATES, PHRASE_SCAN);
    for (const [term, list] of found.postings) {
      if (list.length) byTerm.set(term, [...(byTerm.get(term) ?? []), ...list]);
    }
  }
  return { byTerm, holding };
}
