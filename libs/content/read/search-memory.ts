import { KeptReads } from '@app/platform/projector/kept-reads';
import type { ViewChanges } from '@app/platform/projector/view-changes';
import type { ReadStore } from '@app/platform/readstore/read-store.port';
import { type AnalysedText, analyse, type Posting, TermIds } from '../domain/search';
import type { Hash } from '../domain/tree/hash';
import type { ObjectStore } from '../domain/tree/objects';
import { getPage } from '../domain/tree/page-tree';
import { SEARCH_POSTINGS, termPrefix } from './search.projection';

/** A term's best postings in a space, and how many pages hold it (at least as many as the postings). */
export interface TermPostings {
  count: number;
  postings: readonly Posting[];
}

/** The best `candidates` postings of `term` in `space`, by impact, as ranking reads them. */
export async function readPostings(
  views: ReadStore,
  space: string,
  term: string,
  candidates: number,
): Promise<TermPostings> {
  // Ids order a term's postings best first (see `postingId`).
  const found = await views.find(SEARCH_POSTINGS, { idPrefix: termPrefix(space, term), limit: candidates });
  return {
    count: found.count,
    postings: found.items.map((p) => ({
      term,
      pageId: p.pageId,
      titleHits: p.titleHits,
      bodyHits: p.bodyHits,
      sections: Object.fromEntries(p.sections.map((section) => [section.id, section.hits])),
      length: p.length,
    })),
  };
}

/**
 * Postings held in memory over every kept list, a bound on memory (about 130 MB): past it the lists
 * kept first go first. Room for the best 100 of 6,000 terms: with 4,000 (the bound before), searches
 * drawing on 5,000 terms kept evicting lists they read again, and spent a fifth of their time reading.
 */
const MAX_KEPT_POSTINGS = 600_000;

/**
 * Terms' best postings by space and version of its index (the log position of the event that last
 * moved it, which every change of its postings moves too): a kept list is never stale for its version,
 * so a change of another space's postings keeps it, where dropping every list on any change left a
 * space's search cold while others were edited. Lists of versions left behind go as the bound requires.
 */
export class KeptPostings {
  private readonly kept: KeptReads<TermPostings>;

  constructor(
    private readonly views: ReadStore,
    changes: ViewChanges | undefined,
  ) {
    this.kept = new KeptReads(changes, {
      collections: [],
      capacity: MAX_KEPT_POSTINGS,
      weight: (list) => list.postings.length,
    });
  }

  /**
   * The best `candidates` postings of `term` in `space` at index `version` (not to be changed: they are
   * shared). A query then costs no read for a term searched before, and a common term's count is not
   * counted again.
   */
  of(space: string, term: string, candidates: number, version: number): Promise<TermPostings> {
    return this.kept.of(`${space}\u0000${version}\u0000${candidates}\u0000${term}`, () =>
      readPostings(this.views, space, term, candidates),
    );
  }
}

/** What a result shows of a page from its revision's tree. */
export interface PageFacts {
  title: string;
  description?: string;
  /** Absent where a page or one above it has no slug. */
  path?: string;
  parent: string | null;
}

/** Pages kept at most before they are all dropped: a bound on memory, above a large space's pages. */
const MAX_KEPT_PAGES = 50_000;
/** Ancestors shown at most (the tree is never that deep). */
const MAX_ANCESTORS = 100;

/**
 * Pages of revisions as results show them, by revision root and page id. A root names immutable
 * content, so a kept page is never stale and needs no announcement; a query then walks no tree for
 * its results or their ancestors. A page not found is not kept (its objects may still be on their way).
 */
export class KeptPages {
  /** By root, then page id: a root's key is long, and hashed once per lookup this way. */
  private readonly kept = new Map<Hash, Map<string, PageFacts>>();
  private size = 0;

  constructor(private readonly objects: ObjectStore) {}

  /** The page `id` of the revision at `root`, undefined when it has none. */
  async page(root: Hash, id: string): Promise<PageFacts | undefined> {
    const found = this.kept.get(root)?.get(id);
    if (found) return found;
    const page = await getPage(this.objects, root, id);
    if (!page) return undefined;
    const facts: PageFacts = {
      title: page.title,
      description: page.description,
      path: page.path,
      parent: page.parent,
    };
    if (this.size >= MAX_KEPT_PAGES) {
      this.kept.clear();
      this.size = 0;
    }
    let pages = this.kept.get(root);
    if (!pages) {
      pages = new Map();
      this.kept.set(root, pages);
    }
    pages.set(id, facts);
    this.size++;
    return facts;
  }

  /** The titles of the pages above `page`, the top first; up to the first one not found. */
  async ancestors(root: Hash, page: PageFacts | undefined): Promise<{ title: string }[]> {
    const out: { title: string }[] = [];
    for (let parent = page?.parent ?? null; parent !== null && out.length < MAX_ANCESTORS; ) {
      const above = await this.page(root, parent);
      if (!above) break;
      out.unshift({ title: above.title });
      parent = above.parent;
    }
    return out;
  }
}

/** Terms held at most over every analysed text before they are all dropped: a bound on memory. */
const MAX_KEPT_TERMS = 4_000_000;

/**
 * Section texts analysed once for the snippets of every query that shows them, by language and text.
 * Keyed by the text itself, a kept analysis is never stale; texts read from kept documents are the
 * same strings from one query to the next, whose hash is computed once.
 */
export class AnalysedTexts {
  /** By language: the texts analysed in it, their terms numbered by one `TermIds`. */
  private readonly kept = new Map<string, { ids: TermIds; texts: Map<string, AnalysedText> }>();
  private terms = 0;

  of(text: string, language: string): AnalysedText {
    const found = this.kept.get(language)?.texts.get(text);
    if (found) return found;
    let analysed = this.kept.get(language);
    if (!analysed) {
      analysed = { ids: new TermIds(), texts: new Map() };
      this.kept.set(language, analysed);
    }
    const result = analyse(text, language, analysed.ids);
    if (this.terms + result.terms.length > MAX_KEPT_TERMS) {
      // A text above the bound alone is not kept.
      if (this.terms === 0) return result;
      // The numbering goes too, so that the terms of dropped texts do not stay.
      this.kept.clear();
      this.terms = 0;
      return this.of(text, language);
    }
    analysed.texts.set(text, result);
    this.terms += result.terms.length;
    return result;
  }
}
