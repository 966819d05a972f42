import { CountingStore } from '@app/documents/tree/content.testing';
import type { ProjectionScenario } from '@app/platform/projector/projection.testing';
import { announcedChanges } from '@app/platform/projector/view-changes.testing';
import type { Doc, FindQuery, Page, ReadStore } from '@app/platform/readstore/read-store.port';
import { type TermIndex, TermIndex as Terms } from '../domain';
import {
  type PageTermsDoc,
  SEARCH_INDEXES,
  SEARCH_PAGE_TERMS,
  type SearchIndexDoc,
} from './search.projection';
import { created, languageSet, merged, search, store, written } from './search.testing';
import { SpaceIndexes, type SpaceTerms } from './space-indexes';

/** Views holding the search documents of a scenario (swapped for another's as a test goes), counting reads. */
class Views {
  /** Reads of one page's document, and reads of a space's documents (a page of them each). */
  pageReads = 0;
  spaceReads = 0;
  /** Reads of an index document (a load reads it again, to tell whether it moved meanwhile). */
  indexReads = 0;
  private docs = new Map<string, Map<string, Doc>>();

  async hold(scenario: ProjectionScenario): Promise<this> {
    this.docs = new Map();
    for (const collection of [SEARCH_PAGE_TERMS, SEARCH_INDEXES] as string[]) {
      const docs = await scenario.documents(collection, { withPos: true });
      this.docs.set(collection, new Map(docs.map((d) => [d.id, d])));
    }
    return this;
  }

  async get(collection: string, id: string): Promise<Doc | null> {
    if (collection === SEARCH_INDEXES) this.indexReads++;
    else this.pageReads++;
    return this.docs.get(collection)?.get(id) ?? null;
  }

  /** `idPrefix`, `limit` and `after` in id order, two documents a page whatever the limit: pages are followed. */
  async find(collection: string, query: FindQuery): Promise<Page<Doc>> {
    if (query.idPrefix?.endsWith(':')) this.spaceReads++;
    else this.pageReads++;
    const all = [...(this.docs.get(collection)?.values() ?? [])]
      .filter((d) => d.id.startsWith(query.idPrefix ?? ''))
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    const rest = query.after ? all.filter((d) => d.id > (query.after?.id ?? '')) : all;
    const items = rest.slice(0, Math.min(2, query.limit));
    const last = items[items.length - 1];
    return {
      items,
      count: all.length,
      ...(rest.length > items.length ? { next: { value: last.id, id: last.id } } : {}),
    };
  }

  index(space: string): SearchIndexDoc {
    return this.docs.get(SEARCH_INDEXES)?.get(space) as SearchIndexDoc;
  }

  /** The space's index built at once from the page documents held. */
  expected(space: string): TermIndex {
    const pages = [...(this.docs.get(SEARCH_PAGE_TERMS)?.values() ?? [])] as PageTermsDoc[];
    return Terms.of(pages.filter((d) => d.space === space));
  }
}

const WORDS = ['hors', 'paper', 'cattl', 'even', 'morn', 'guid', 'deploy', 'read'];
/** Some terms' postings, as plain objects (hits by section are built when asked for). */
const lists = (index: SpaceTerms) =>
  Object.fromEntries(
    WORDS.map((word) => {
      const { count, postings } = index.postings(word, 100);
      return [word, { count, postings: postings.map((p) => ({ ...p, sections: p.sections })) }];
    }),
  );

describe('SpaceIndexes', () => {
  let first: Awaited<ReturnType<typeof written>>;
  let second: Awaited<ReturnType<typeof written>>;
  let before: ProjectionScenario;
  let after: ProjectionScenario;

  beforeAll(async () => {
    first = await written('s1', null, [
      ['p1', 'Horses', 'Horses read the morning papers.'],
      ['p2', 'Cattle', 'Cattle read the evening papers.'],
      ['p3', 'Deploying', 'To deploy horses, follow the guide.'],
    ]);
    // p1 edited, p2 removed, p4 added; p3 as it was.
    second = await written(
      's1',
      first.root,
      [
        ['p1', 'Horses', 'Horses read the evening papers.'],
        ['p4', 'Guide', 'The guide to cattle.'],
      ],
      ['p2'],
    );
    before = search.given(created('s1'), first.stored, merged('s1', first.root));
    after = search.given(
      created('s1'),
      first.stored,
      merged('s1', first.root),
      second.stored,
      merged('s1', second.root, 2),
    );
  });

  const indexesOver = (views: Views) => {
    const { changes, announce } = announcedChanges();
    return { indexes: new SpaceIndexes(views as unknown as ReadStore, store, changes), announce };
  };

  it('loads a space from its pages’ documents, then follows a merge reading only the pages it changed', async () => {
    const views = await new Views().hold(before);
    const { indexes } = indexesOver(views);
    const loaded = await indexes.with('s1', views.index('s1'), lists);
    expect(loaded).toEqual(lists(views.expected('s1')));
    expect(loaded.hors.postings.map((p) => p.pageId)).toEqual(['p1', 'p3']);
    // Three documents, two a page.
    expect([views.spaceReads, views.pageReads]).toEqual([2, 0]);

    await views.hold(after);
    views.spaceReads = 0;
    const followed = await indexes.with('s1', views.index('s1'), lists);
    expect(followed).toEqual(lists(views.expected('s1')));
    expect(followed.cattl.postings.map((p) => p.pageId)).toEqual(['p4']);
    // p1, p2 and p4: p3 is not read again.
    expect([views.spaceReads, views.pageReads]).toEqual([0, 3]);
    await indexes.with('s1', views.index('s1'), lists);
    expect([views.spaceReads, views.pageReads]).toEqual([0, 3]);
  });

  it('keeps a term’s postings as built for the next query, until its list changes', async () => {
    const views = await new Views().hold(before);
    const { indexes } = indexesOver(views);
    const read = (term: string, candidates = 100) =>
      indexes.with('s1', views.index('s1'), (terms) => terms.postings(term, candidates));
    const horses = await read('hors');
    expect(await read('hors')).toBe(horses);
    expect((await read('hors', 1)).postings).toEqual(horses.postings.slice(0, 1));
    const papers = await read('paper');
    await views.hold(after);
    // p1 changed, p2 went: both lists moved, and are built again.
    expect(await read('hors')).not.toBe(horses);
    expect((await read('paper')).postings.map((p) => p.pageId)).toEqual(['p1']);
    expect(papers.postings.map((p) => p.pageId)).toEqual(['p1', 'p2']);
  });

  it('loads a space without reading its content, unless its index document moved meanwhile', async () => {
    const views = await new Views().hold(before);
    const objects = new CountingStore(store);
    const quiet = new SpaceIndexes(views as unknown as ReadStore, objects);
    await quiet.with('s1', views.index('s1'), lists);
    expect(objects.gets).toBe(0);
    // Asked for with an index document older than the one held: the walk finds the pages ahead.
    const old = views.index('s1');
    await views.hold(after);
    await new SpaceIndexes(views as unknown as ReadStore, objects).with('s1', old, lists);
    expect(objects.gets).toBeGreaterThan(0);
  });

  it('reads again the pages it read ahead of the index document, until the index catches up', async () => {
    // The page documents of after the second merge, with the index document of before it.
    const old = (await new Views().hold(before)).index('s1');
    const views = await new Views().hold(after);
    const { indexes } = indexesOver(views);
    const ahead = await indexes.with('s1', old, lists);
    expect(ahead).toEqual(lists(views.expected('s1')));
    // p1 and p4 were written after it; p2 is in its root but has no document any more.
    await indexes.with('s1', old, lists);
    expect(views.pageReads).toBe(3);
    await indexes.with('s1', views.index('s1'), lists);
    expect(views.pageReads).toBe(6);
    expect(await indexes.with('s1', views.index('s1'), lists)).toEqual(lists(views.expected('s1')));
    expect(views.pageReads).toBe(6);
  });

  it('loads a space again in a new language, and every space after a switch of views', async () => {
    const french = search.given(
      created('s1'),
      first.stored,
      merged('s1', first.root),
      languageSet('s1', 'fr'),
    );
    const views = await new Views().hold(before);
    const { indexes, announce } = indexesOver(views);
    await indexes.with('s1', views.index('s1'), lists);
    await views.hold(french);
    const inFrench = await indexes.with('s1', views.index('s1'), (terms) => terms.postings('cheval', 100));
    expect(inFrench).toEqual(views.expected('s1').postings('cheval', 100));
    expect(views.spaceReads).toBe(4);
    announce(new Set([SEARCH_PAGE_TERMS]));
    await indexes.with('s1', views.index('s1'), lists);
    expect(views.spaceReads).toBe(4);
    announce('all');
    await indexes.with('s1', views.index('s1'), lists);
    expect(views.spaceReads).toBe(6);
  });

  it('serves the requests of a space one at a time: none reads while another changes the index', async () => {
    const views = await new Views().hold(before);
    const old = views.index('s1');
    const { indexes } = indexesOver(views);
    const loading = indexes.with('s1', old, (terms) => ({ reads: views.pageReads, lists: lists(terms) }));
    await views.hold(after);
    const following = indexes.with('s1', views.index('s1'), (terms) => ({
      reads: views.pageReads,
      lists: lists(terms),
    }));
    const [one, two] = await Promise.all([loading, following]);
    // The first was answered before the second read a page.
    expect(one.reads).toBe(0);
    expect(two.lists).toEqual(lists(views.expected('s1')));
  });
});
