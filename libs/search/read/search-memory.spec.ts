import { CountingStore, edit, newStore } from '@app/documents/tree/content.testing';
import { getPage } from '@app/documents/tree/page-tree';
import { analyse } from '../domain';
import { AnalysedTexts, KeptPages } from './search-memory';

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
