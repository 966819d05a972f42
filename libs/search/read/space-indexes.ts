import { EMPTY_CONTENT, EMPTY_ROOT, readContent } from '@app/documents/tree/content';
import { diffObjects } from '@app/documents/tree/diff';
import type { Hash } from '@app/documents/tree/hash';
import type { ObjectStore } from '@app/documents/tree/objects';
import type { PageObject } from '@app/documents/tree/page';
import type { ChangedCollections, ViewChanges } from '@app/platform/projector/view-changes';
import type { ReadStore } from '@app/platform/readstore/read-store.port';
import { type PhrasePostings, TermIndex, type TermPostings, type TermSource } from '../domain';
import {
  indexable,
  indexLanguage,
  type PageTermsDoc,
  SEARCH_INDEXES,
  SEARCH_PAGE_TERMS,
  type SearchIndexDoc,
  spacePagesPrefix,
} from './search.projection';

/**
 * Postings held in memory over every space kept, a bound on memory (about 40 bytes each): past it the
 * spaces used longest ago go. Room for a space of 10,000 pages of 2 KB (about 1.9 million) and more.
 */
const MAX_KEPT_POSTINGS = 3_000_000;
/**
 * Terms' best postings kept built, at most, over every space (about 200 bytes each): a query of a term
 * asked for before builds none. Room for the best 100 of 6,000 terms.
 */
const MAX_KEPT_HEADS = 600_000;
/** Pages changed at most between a kept index and the one asked for, past which it is loaded anew. */
const FOLLOW_AT_MOST = 2_000;
/** Page documents read per request when a space's index is loaded. */
const LOAD_BATCH = 500;

/** A space's index as kept: the postings of its pages at `root`, analysed in `language`. */
interface KeptIndex {
  root: Hash;
  language: string;
  terms: TermIndex;
  /**
   * Pages whose postings may be from after `root` (read from a document a later merge wrote), with the
   * page as `root` holds it: read again whenever the index is asked for, until they are not.
   */
  ahead: Map<string, PageObject | undefined>;
  weight: number;
}

/** The postings of a space's terms as a query reads them (see `TermIndex.postings` and `phrase`). */
export type SpaceTerms = TermSource;

/** A term's best postings as built, with the index and version of its list they were built from. */
interface KeptHead {
  terms: TermIndex;
  changes: number;
  found: TermPostings;
}

/**
 * Each space's search index in memory, built from its pages' postings documents and kept following the
 * space's index document: asked for another root, a kept index reads again only the pages that differ
 * between the two roots (a diff of immutable trees) and those it read ahead of its root. A query then
 * reads no postings, and a merge writes a document per page it changed rather than one per term. The
 * index asked for is the one the caller's index document names, so read-your-writes holds as for any
 * view. A space's indexes are brought up to date one request at a time.
 */
export class SpaceIndexes {
  private readonly kept = new Map<string, KeptIndex>();
  private readonly turns = new Map<string, Promise<unknown>>();
  private weight = 0;
  private readonly heads = new Map<string, KeptHead>();
  private headsWeight = 0;

  private readonly objects: ObjectStore;

  constructor(
    private readonly views: ReadStore,
    objects: ObjectStore,
    changes?: ViewChanges,
  ) {
    // The empty content is no stored object.
    this.objects = { get: (hash) => (hash === EMPTY_ROOT ? EMPTY_CONTENT : objects.get(hash)) };
    // Views switched (a rebuild, or views of another log): what was kept may be of another history.
    changes?.onChange((changed: ChangedCollections) => {
      if (changed === 'all') this.forget();
    });
  }

  /**
   * Calls `use` with the term index of `space` at `index` (its index document), once it is there: at
   * once, within the space's turn, so that no other request changes the index while `use` reads it.
   */
  with<T>(space: string, index: SearchIndexDoc, use: (terms: SpaceTerms) => T): Promise<T> {
    const previous = this.turns.get(space) ?? Promise.resolve();
    const read = () =>
      this.at(space, index).then((terms) =>
        use({
          postings: (term, candidates) => this.head(space, terms, term, candidates),
          // Per query, not kept: a phrase is rarely asked for twice, and costs little to look for.
          phrase: (sequence, limit, scan): PhrasePostings => terms.phrase(sequence, limit, scan),
        }),
      );
    const turn = previous.then(read, read);
    const settled = turn.then(
      () => undefined,
      () => undefined,
    );
    this.turns.set(space, settled);
    settled.then(() => {
      if (this.turns.get(space) === settled) this.turns.delete(space);
    });
    return turn;
  }

  /** The best `candidates` postings of `term`: kept from an earlier query while its list is unchanged. */
  private head(space: string, terms: TermIndex, term: string, candidates: number): TermPostings {
    const key = `${space}\u0000${term}`;
    const kept = this.heads.get(key);
    const changes = terms.changes(term);
    if (kept && kept.terms === terms && kept.changes === changes) {
      const { count, postings } = kept.found;
      if (postings.length >= Math.min(candidates, count))
        return postings.length <= candidates
          ? kept.found
          : { count, postings: postings.slice(0, candidates) };
    }
    const found = terms.postings(term, candidates);
    if (kept) {
      this.heads.delete(key);
      this.headsWeight -= kept.found.postings.length;
    }
    this.heads.set(key, { terms, changes, found });
    this.headsWeight += found.postings.length;
    for (const [oldest, other] of this.heads) {
      if (this.headsWeight <= MAX_KEPT_HEADS) break;
      this.heads.delete(oldest);
      this.headsWeight -= other.found.postings.length;
    }
    return found;
  }

  private async at(space: string, index: SearchIndexDoc): Promise<TermIndex> {
    const language = indexLanguage(index);
    const found = this.kept.get(space);
    let kept: KeptIndex;
    if (found && found.language === language) {
      kept = found.root === index.root && !found.ahead.size ? found : await this.follow(space, found, index);
    } else kept = await this.load(space, index);
    this.keep(space, kept);
    return kept.terms;
  }

  /**
   * The index of `space` read whole from its pages' documents. A document written after `index` (a later
   * `_pos`) is ahead of it. One that a later merge removed cannot tell so: when the index document moved
   * while the documents were read, the pages of `index`'s root are listed (a walk of its tree, which
   * reads every page object) to find those, so that they are read again too.
   */
  private async load(space: string, index: SearchIndexDoc): Promise<KeptIndex> {
    const docs: PageTermsDoc[] = [];
    for (let after: { value: string | number | boolean | null; id: string } | undefined; ; ) {
      const page = await this.views.find(SEARCH_PAGE_TERMS, {
        idPrefix: spacePagesPrefix(space),
        limit: LOAD_BATCH,
        ...(after ? { after } : {}),
      });
      docs.push(...page.items);
      if (!page.next) break;
      after = page.next;
    }
    const ahead = new Map<string, PageObject | undefined>();
    const held = new Set<string>();
    for (const doc of docs) {
      held.add(doc.pageId);
      if ((doc._pos ?? 0) > index.position) ahead.set(doc.pageId, undefined);
    }
    const now = await this.views.get(SEARCH_INDEXES, space);
    if (now?.position !== index.position) {
      const content = await readContent(this.objects, index.root);
      for (const { id, after: page } of await diffObjects<PageObject>(this.objects, null, content.pages)) {
        if (ahead.has(id)) ahead.set(id, page);
        else if (page && indexable(page) && !held.has(id)) ahead.set(id, page);
      }
    }
    const terms = TermIndex.of(docs);
    return { root: index.root, language: indexLanguage(index), terms, ahead, weight: terms.size };
  }

  /** `kept` brought to `index`: the pages that differ read again, with those it read ahead of its root. */
  private async follow(space: string, kept: KeptIndex, index: SearchIndexDoc): Promise<KeptIndex> {
    const [before, after] = await Promise.all([
      readContent(this.objects, kept.root),
      readContent(this.objects, index.root),
    ]);
    const changed = await diffObjects<PageObject>(this.objects, before.pages, after.pages);
    if (changed.length > FOLLOW_AT_MOST) return this.load(space, index);
    const pages = new Map(kept.ahead);
    for (const { id, after: page } of changed) pages.set(id, page);
    const ids = [...pages.keys()];
    const docs = await Promise.all(ids.map((id) => this.pageTerms(space, id)));
    // Changed only now, after every read: a request in another space's turn never sees it half done.
    const ahead = new Map<string, PageObject | undefined>();
    ids.forEach((id, i) => {
      const doc = docs[i];
      const page = pages.get(id);
      kept.terms.set(id, doc ?? undefined);
      const later = doc ? (doc._pos ?? 0) > index.position : page !== undefined && indexable(page);
      if (later) ahead.set(id, page);
    });
    kept.root = index.root;
    kept.ahead = ahead;
    return kept;
  }

  /**
   * A page's postings document, read by its id as a range of one (both stores seek it on the primary key)
   * rather than by `get`: the views' cache of documents would keep a second copy of what the index holds,
   * and be sent each of its later versions.
   */
  private async pageTerms(space: string, pageId: string): Promise<PageTermsDoc | null> {
    const id = `${spacePagesPrefix(space)}${pageId}`;
    // A range needs an ASCII last character; generated page ids always end with one.
    if (!(id.charCodeAt(id.length - 1) < 0x7f)) return this.views.get(SEARCH_PAGE_TERMS, id);
    const { items } = await this.views.find(SEARCH_PAGE_TERMS, { idPrefix: id, limit: 1 });
    return items[0]?.id === id ? items[0] : null;
  }

  /** Keeps `kept` as the most recently used, and lets go of the least recently used past the bound. */
  private keep(space: string, kept: KeptIndex): void {
    const previous = this.kept.get(space);
    if (previous) this.weight -= previous.weight;
    this.kept.delete(space);
    kept.weight = kept.terms.size;
    this.kept.set(space, kept);
    this.weight += kept.weight;
    for (const [oldest, other] of this.kept) {
      // The one just used stays, even alone past the bound.
      if (this.weight <= MAX_KEPT_POSTINGS || oldest === space) break;
      this.kept.delete(oldest);
      this.weight -= other.weight;
    }
  }

  private forget(): void {
    this.kept.clear();
    this.weight = 0;
    this.heads.clear();
    this.headsWeight = 0;
  }
}
