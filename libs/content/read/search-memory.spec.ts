import { announcedChanges } from '@app/platform/projector/view-changes.testing';
import type { ReadStore } from '@app/platform/readstore/read-store.port';
import { analyse } from '../domain/search';
import { CountingStore, edit, newStore } from '../domain/tree/content.testing';
import { getPage } from '../domain/tree/page-tree';
import { SEARCH_INDEXES, SEARCH_PAGES, SEARCH_POSTINGS } from './search.projection';
import { AnalysedTexts, KeptPages, KeptPostings } from './search-memory';

describe('KeptPostings', () => {
  const stored = [
    {
      id: 's:word:p1',
      space: 's',
      term: 'word',
      pageId: 'p1',
      titleHits: 1,
      bodyHits: 2,
      sections: [
        { id: '', hits: 1 },
        { id: 'intro', hits: 1 },
      ],
      length: 40,
      impact: 5,
    },
  ];

  /** A store answering one posting of a term held by 7 pages, counting the queries it answers. */
  function setup(active = true) {
    const reads = { count: 0 };
    const views = {
      find: async () => {
        reads.count++;
        return { items: stored, count: 7 };
      },
    } as unknown as ReadStore;
    const { changes, announce } = announcedChanges(active);
    return { postings: new KeptPostings(views, changes), reads, announce };
  }

  it('reads a list once for concurrent queries, as ranking reads it, and keeps it for its index version', async () => {
    const { postings, reads, announce } = setup();
    const [a, b] = await Promise.all([postings.of('s', 'word', 100, 7), postings.of('s', 'word', 100, 7)]);
    expect(reads.count).toBe(1);
    expect(a).toBe(b);
    expect(a).toEqual({
      count: 7,
      postings: [
        {
          term: 'word',
          pageId: 'p1',
          titleHits: 1,
          bodyHits: 2,
          sections: { '': 1, intro: 1 },
          length: 40,
        },
      ],
    });
    await postings.of('s', 'word', 100, 7);
    expect(reads.count).toBe(1);
    // Another number of candidates is another list.
    await postings.of('s', 'word', 25, 7);
    expect(reads.count).toBe(2);
    // Postings changed (another space's, or this one's at a later version): the list of version 7 holds.
    announce(new Set([SEARCH_INDEXES, SEARCH_PAGES, SEARCH_POSTINGS, 'spaces']));
    await postings.of('s', 'word', 100, 7);
    expect(reads.count).toBe(2);
    // The space's index moved: its lists are read again.
    await postings.of('s', 'word', 100, 9);
    expect(reads.count).toBe(3);
    // Views switched (a rebuild): nothing kept holds.
    announce('all');
    await postings.of('s', 'word', 100, 9);
    expect(reads.count).toBe(4);
  });

  it('keeps nothing while changes are not announced', async () => {
    const { postings, reads } = setup(false);
    await postings.of('s', 'word', 100, 7);
    await postings.of('s', 'word', 100, 7);
    expect(reads.count).toBe(2);
  });
});

describe('KeptPages', () => {
  it('walks a revision once for a page and its ancestors, and reads each root apart', async () => {
    const store = newStore();
    const root = await edit(store, null, async (e) => {
      await e.insertPage({ id: 'a', type: 'group', title: 'A', slug: 'a' });
      await e.insertPage({ id: 'b', type: 'document', title: 'B', slug: 'b', parent: 'a' });
      await e.insertPage({
        id: 'c',
        type: 'document',
        title: 'C',
        slug: 'c',
        parent: 'b',
        description: 'about C',
      });
    });
    const next = await edit(store, root, async (e) => {
      await e.updatePage('a', { title: 'A2' });
    });
    const counting = new CountingStore(store);
    const pages = new KeptPages(counting);
    const c = await pages.page(root, 'c');
    expect(c).toEqual({ title: 'C', description: 'about C', path: 'a/b/c', parent: 'b' });
    expect(await pages.ancestors(root, c)).toEqual([{ title: 'A' }, { title: 'B' }]);
    const view = await getPage(store, root, 'c');
    expect(c?.path).toBe(view?.path);

    const reads = counting.gets;
    expect(await pages.page(root, 'c')).toBe(c);
    expect(await pages.ancestors(root, c)).toEqual([{ title: 'A' }, { title: 'B' }]);
    expect(counting.gets).toBe(reads);

    expect(await pages.ancestors(next, await pages.page(next, 'c'))).toEqual([
      { title: 'A2' },
      { title: 'B' },
    ]);
    expect(await pages.page(root, 'missing')).toBeUndefined();
    expect(await pages.ancestors(root, undefined)).toEqual([]);
  });
});

describe('AnalysedTexts', () => {
  it('analyses a text once per language', () => {
    const texts = new AnalysedTexts();
    const text = 'Running the servers';
    const english = texts.of(text, 'en');
    expect(english).toEqual(analyse(text, 'en'));
    expect(texts.of(text, 'en')).toBe(english);
    expect(texts.of(text, 'fr')).toEqual(analyse(text, 'fr'));
    expect(texts.of(text, 'fr')).not.toBe(english);
  });
});
