import { doc, edit, newStore } from '@app/documents/tree/content.testing';
import type { ContentEditor } from '@app/documents/tree/editor';
import type { Hash } from '@app/documents/tree/hash';
import type { MemoryObjectStore } from '@app/documents/tree/objects';
import {
  getDocument,
  getFile,
  getPage,
  getVariables,
  listChildren,
  listPages,
} from '@app/documents/tree/page-tree';
import { type MergeResult, mergeRevisions, rebaseRevision } from './merge';

type Change = (e: ContentEditor) => Promise<unknown>;

const file = { id: 'f1', name: 'a.png', contentType: 'image/png', downloadURL: 'https://x/a', size: 1 };

/** A base with pages a (document), b (with child c), a group g; a file and a variable. */
async function setup(ours: Change, theirs: Change) {
  const store = newStore();
  const base = await edit(store, null, async (e) => {
    await e.insertPage({
      id: 'a',
      type: 'document',
      title: 'A',
      slug: 'a',
      document: doc(['1', 'one'], ['2', 'two'], ['3', 'three']),
    });
    await e.insertPage({ id: 'b', type: 'document', title: 'B', slug: 'b' });
    await e.insertPage({ id: 'c', type: 'document', title: 'C', slug: 'c', parent: 'b' });
    await e.insertPage({ id: 'g', type: 'group', title: 'G', slug: 'g' });
    await e.putFile(file);
    e.setVariables({ v: '1' });
  });
  const o = await edit(store, base, ours);
  const t = await edit(store, base, theirs);
  return { store, base, ours: o, theirs: t, merged: await mergeRevisions(store, base, o, t) };
}

function rootOf(store: MemoryObjectStore, merged: MergeResult): Hash {
  if (merged.result !== 'merge') throw new Error(`expected a merge, got ${JSON.stringify(merged.conflicts)}`);
  store.add(merged.created);
  return merged.root;
}

describe('mergeRevisions', () => {
  it('keeps changes to different pages from both sides', async () => {
    const { store, merged } = await setup(
      (e) => e.updatePage('a', { title: 'A!' }),
      async (e) => {
        await e.updatePage('b', { title: 'B!' });
        await e.insertPage({ id: 'n', type: 'document', title: 'N', slug: 'n', parent: 'g' });
      },
    );
    // Their page objects are stored already: the merge writes only the maps' new nodes and the root.
    const created = [...(merged as { created: Map<string, unknown> }).created.values()];
    expect(created.some((o) => (o as { id?: string }).id !== undefined)).toBe(false);
    const root = rootOf(store, merged);
    expect((await listPages(store, root)).map((p) => p.title)).toEqual(['A!', 'B!', 'G']);
    expect(await listChildren(store, root, 'g')).toEqual(['n']);
  });

  it('merges one page field by field, and its document block by block', async () => {
    const { store, merged } = await setup(
      (e) => e.updatePage('a', { title: 'A!', document: doc(['1', 'ONE'], ['2', 'two'], ['3', 'three']) }),
      (e) =>
        e.updatePage('a', {
          emoji: '1f600',
          document: doc(['1', 'one'], ['2', 'two'], ['3', 'THREE'], ['4', 'four']),
        }),
    );
    const root = rootOf(store, merged);
    const page = await getPage(store, root, 'a');
    expect(page).toMatchObject({ title: 'A!', emoji: '1f600' });
    expect(await getDocument(store, page?.documentId as string)).toEqual(
      doc(['1', 'ONE'], ['2', 'two'], ['3', 'THREE'], ['4', 'four']),
    );
  });

  it('keeps the later edit time of a page both sides edited, rather than a conflict', async () => {
    const { store, merged } = await setup(
      (e) => e.updatePage('a', { title: 'A!', updatedAt: '2026-02-02T00:00:00.000Z' }),
      (e) => e.updatePage('a', { emoji: '1f600', updatedAt: '2026-01-01T00:00:00.000Z' }),
    );
    expect(await getPage(store, rootOf(store, merged), 'a')).toMatchObject({
      title: 'A!',
      emoji: '1f600',
      updatedAt: '2026-02-02T00:00:00.000Z',
    });
  });

  it('reports a field both sides changed differently, and changes nothing', async () => {
    const { merged } = await setup(
      (e) => e.updatePage('a', { title: 'Ours' }),
      (e) => e.updatePage('a', { title: 'Theirs', description: 'fine' }),
    );
    expect(merged).toEqual({
      result: 'conflicts',
      conflicts: [{ pageId: 'a', reason: 'edited-both', fields: ['title'] }],
    });
  });

  it('reports a block both sides changed differently', async () => {
    const { merged } = await setup(
      (e) => e.updatePage('a', { document: doc(['1', 'one'], ['2', 'ours'], ['3', 'three']) }),
      (e) => e.updatePage('a', { document: doc(['1', 'one'], ['2', 'theirs'], ['3', 'three']) }),
    );
    expect(merged).toEqual({
      result: 'conflicts',
      conflicts: [{ pageId: 'a', reason: 'blocks', blocks: ['2'] }],
    });
  });

  it('reports a page deleted on one side and changed on the other, also through its parent', async () => {
    const { merged } = await setup(
      (e) => e.deletePage('b'),
      (e) => e.updatePage('c', { title: 'C!' }),
    );
    expect(merged).toEqual({
      result: 'conflicts',
      conflicts: [{ pageId: 'c', reason: 'deleted-edited', deletedBy: 'ours' }],
    });
  });

  it('reports a page both sides moved to different places, and agrees on the same move', async () => {
    const { merged } = await setup(
      (e) => e.movePage('c', { parent: 'a' }),
      (e) => e.movePage('c', { parent: null }),
    );
    expect(merged).toEqual({ result: 'conflicts', conflicts: [{ pageId: 'c', reason: 'moved-both' }] });
    const same = await setup(
      (e) => e.movePage('c', { parent: 'a' }),
      async (e) => {
        await e.movePage('c', { parent: 'a' });
        await e.updatePage('c', { title: 'C!' });
      },
    );
    expect(await getPage(same.store, rootOf(same.store, same.merged), 'c')).toMatchObject({
      parent: 'a',
      title: 'C!',
    });
  });

  it('reports moves that together put a page under itself', async () => {
    const { merged } = await setup(
      (e) => e.movePage('a', { parent: 'c' }),
      (e) => e.movePage('b', { parent: 'a' }),
    );
    expect(merged.result).toBe('conflicts');
    expect((merged as { conflicts: unknown[] }).conflicts).toContainEqual({ pageId: 'a', reason: 'cycle' });
  });

  it('reports a page put under a page the other side deleted', async () => {
    const { merged } = await setup(
      (e) => e.insertPage({ id: 'n', type: 'document', title: 'N', slug: 'n', parent: 'a' }),
      (e) => e.deletePage('a'),
    );
    expect(merged).toEqual({
      result: 'conflicts',
      conflicts: [{ pageId: 'n', reason: 'orphaned', parentId: 'a' }],
    });
  });

  it('reports two pages that would share a path', async () => {
    const { merged } = await setup(
      (e) => e.insertPage({ id: 'n1', type: 'document', title: 'N', slug: 'new' }),
      (e) => e.insertPage({ id: 'n2', type: 'document', title: 'N', slug: 'new' }),
    );
    expect(merged).toEqual({
      result: 'conflicts',
      conflicts: [{ pageId: 'n2', reason: 'slug-taken', slug: 'new', otherPageId: 'n1' }],
    });
  });

  it('keeps pages both sides inserted at one place, in a fixed order', async () => {
    const insert = (id: string) => (e: ContentEditor) =>
      e.insertPage({ id, type: 'document', title: id, slug: id, index: 1 });
    const { store, merged } = await setup(insert('o'), insert('t'));
    expect(await listChildren(store, rootOf(store, merged), null)).toEqual(['a', 'o', 't', 'b', 'g']);
  });

  it('merges files field by field and variables key by key', async () => {
    const { store, merged } = await setup(
      async (e) => {
        await e.putFile({ ...file, name: 'b.png' });
        e.setVariables({ v: '1', w: 'ours' });
      },
      async (e) => {
        await e.putFile({ ...file, downloadURL: 'https://x/b', size: 2 });
        e.setVariables({ v: '2' });
      },
    );
    const root = rootOf(store, merged);
    expect(await getFile(store, root, 'f1')).toEqual({
      ...file,
      name: 'b.png',
      downloadURL: 'https://x/b',
      size: 2,
    });
    expect(await getVariables(store, root)).toEqual({ v: '2', w: 'ours' });
    const clash = await setup(
      async (e) => {
        await e.deleteFile('f1');
        e.setVariables({ v: 'ours' });
      },
      async (e) => {
        await e.putFile({ ...file, name: 'c.png' });
        e.setVariables({ v: 'theirs' });
      },
    );
    expect(clash.merged).toEqual({
      result: 'conflicts',
      conflicts: [
        { fileId: 'f1', reason: 'deleted-edited', deletedBy: 'ours' },
        { variable: 'v', reason: 'edited-both' },
      ],
    });
  });

  it('answers a side unchanged when the other changed nothing, without new objects', async () => {
    const { store, base, ours } = await setup(
      (e) => e.updatePage('a', { title: 'A!' }),
      async () => {},
    );
    expect(await mergeRevisions(store, base, ours, base)).toEqual({
      result: 'merge',
      root: ours,
      created: new Map(),
    });
    expect(await mergeRevisions(store, base, base, ours)).toEqual({
      result: 'merge',
      root: ours,
      created: new Map(),
    });
    expect(await rebaseRevision(store, base, ours, base)).toEqual({
      result: 'merge',
      root: ours,
      created: new Map(),
    });
  });
});
