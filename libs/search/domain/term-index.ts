/**
 * An inverted index of one space's pages in memory: each term's postings, best first. Held in typed
 * arrays rather than an object per posting: a space of 10,000 pages holds about two million postings,
 * which as objects (about 200 bytes each, with their hits by section) took B12's server to 2.9 GB and its
 * p99 past 50 ms; here they cost about 40 bytes, in arrays the garbage collector does not walk.
 */
import type { Posting } from './indexing';
import { type PackedPostings, postingOrder, setHits } from './packed';

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
}

/** A page as the index keeps it: its postings as numbers (see `TermIndex`). */
interface KeptPage {
  pageId: string;
  length: number;
  sectionIds: readonly string[];
  data: Int32Array;
}

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
    for (let n = 0, k = this.#at + 4; n < data[this.#at + 3]; n++, k += 2)
      setHits(sections, sectionIds[data[k]], data[k + 1]);
    this.#sections = sections;
    return sections;
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
 * as numbers: for each of its terms the term's number, title hits, body hits, section count, then a
 * (section place, hits) pair per section; a term list entry points into it.
 */
export class TermIndex {
  private readonly termIds = new Map<string, number>();
  private readonly terms: string[] = [];
  private readonly lists: TermList[] = [];
  private readonly slots = new Map<string, number>();
  private readonly free: number[] = [];
  private readonly pages: Array<{
    pageId: string;
    length: number;
    sectionIds: readonly string[];
    data: Int32Array;
  }> = [];
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

  /** How many times the postings of `term` changed (any number when it never had any): a version of them. */
  changes(term: string): number {
    const termId = this.termIds.get(term);
    return termId === undefined ? -1 : this.changed[termId];
  }

  /** Keeps `page` as numbers in a slot of its own; its terms' lists count it, not yet placed. */
  private store(page: PageTerms): number {
    const packed = page.postings;
    const data = new Int32Array(packed.length);
    for (let i = 0; i < packed.length; ) {
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
      data[i] = termId;
      for (let k = i + 1; k < i + 4 + 2 * sections; k++) data[k] = packed[k] as number;
      i += 4 + 2 * sections;
    }
    const slot = this.free.pop() ?? this.pages.length;
    this.pages[slot] = { pageId: page.pageId, length: page.length, sectionIds: page.sectionIds, data };
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
    for (let at = 0; at < data.length; at += 4 + 2 * data[at + 3]) {
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
