import type { Hash } from '@app/documents/tree/hash';
import type { ObjectStore } from '@app/documents/tree/objects';
import { getPage } from '@app/documents/tree/page-tree';
import { type AnalysedText, analyse, TermIds } from '../domain';

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
