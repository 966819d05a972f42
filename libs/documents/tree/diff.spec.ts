import { doc, edit, newStore } from './content.testing';
import { diffRevisions } from './diff';
import { hashOf } from './hash';

describe('diffRevisions', () => {
  it('lists pages created, deleted, edited and moved, files and variables, in the shape GitBook answers', async () => {
    const store = newStore();
    const file = { id: 'f1', name: 'a.png', contentType: 'image/png', downloadURL: 'https://x/a', size: 1 };
    const base = await edit(store, null, async (e) => {
      await e.insertPage({ id: 'a', type: 'document', title: 'A', slug: 'a', document: doc(['k', 'v1']) });
      await e.insertPage({ id: 'b', type: 'document', title: 'B', slug: 'b' });
      await e.insertPage({ id: 'c', type: 'document', title: 'C', slug: 'c', parent: 'b' });
      await e.insertPage({ id: 'gone', type: 'document', title: 'Gone', slug: 'gone' });
      await e.putFile(file);
      e.setVariables({ v: '1' });
    });
    const other = await edit(store, base, async (e) => {
      await e.updatePage('a', { title: 'A2', document: doc(['k', 'v2']) });
      await e.movePage('c', { parent: 'a' });
      await e.deletePage('gone');
      await e.insertPage({ id: 'new', type: 'document', title: 'New', slug: 'new', parent: 'b' });
      await e.putFile({ ...file, name: 'b.png' });
      e.setVariables({ v: '2', w: '3' });
    });
    expect(await diffRevisions(store, base, base)).toEqual([]);
    expect(await diffRevisions(store, base, other)).toEqual([
      {
        type: 'page_edited',
        page: { id: 'a', type: 'document', title: 'A2', path: 'a' },
        attributes: {
          documentId: { before: hashOf(doc(['k', 'v1'])), after: hashOf(doc(['k', 'v2'])) },
          title: { before: 'A', after: 'A2' },
        },
      },
      {
        type: 'page_moved',
        page: { id: 'c', type: 'document', title: 'C', path: 'a/c' },
        parent: {
          before: { id: 'b', type: 'document', title: 'B', path: 'b' },
          after: { id: 'a', type: 'document', title: 'A2', path: 'a' },
        },
      },
      { type: 'page_deleted', page: { id: 'gone', type: 'document', title: 'Gone', path: 'gone' } },
      { type: 'page_created', page: { id: 'new', type: 'document', title: 'New', path: 'b/new' } },
      {
        type: 'file_edited',
        file: { ...file, name: 'b.png' },
        attributes: { name: { before: 'a.png', after: 'b.png' } },
      },
      { type: 'variables_edited', variables: { v: { before: '1', after: '2' }, w: { after: '3' } } },
    ]);
  });
});
