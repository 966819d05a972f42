import { DomainError } from '@app/platform/domain/decider';
import { doc, edit, newStore } from './content.testing';
import { ContentEditor } from './editor';
import { hashOf } from './hash';
import { MemoryObjectStore } from './objects';
import {
  getDocument,
  getFile,
  getPage,
  getPageByPath,
  getReusableContent,
  getVariables,
  listChildren,
  listFiles,
  listPages,
  type PageNode,
} from './page-tree';

/** The tree as `title (path)` lines, indented by depth. */
const outline = (pages: PageNode[], depth = 0): string[] =>
  pages.flatMap((p) => [
    `${'  '.repeat(depth)}${p.title} (${p.path ?? '-'})`,
    ...outline(p.pages, depth + 1),
  ]);

async function sample(store: MemoryObjectStore) {
  return edit(store, null, async (e) => {
    await e.insertPage({
      id: 'intro',
      type: 'document',
      title: 'Intro',
      slug: 'intro',
      document: doc(['a', 'Hello']),
    });
    await e.insertPage({ id: 'guides', type: 'group', title: 'Guides', slug: 'guides' });
    await e.insertPage({ id: 'setup', type: 'document', title: 'Setup', slug: 'setup', parent: 'guides' });
    await e.insertPage({ id: 'usage', type: 'document', title: 'Usage', slug: 'usage', parent: 'guides' });
    await e.insertPage({ id: 'cli', type: 'document', title: 'CLI', slug: 'cli', parent: 'usage' });
    await e.insertPage({
      id: 'home',
      type: 'link',
      title: 'Home',
      parent: 'guides',
      target: { kind: 'url', url: 'https://example.com' },
    });
  });
}

const refused = async (promise: Promise<unknown>, kind: string) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).kind).toBe(kind);
};

describe('content editor and page tree', () => {
  it('lists the tree in order with paths built from slugs, groups included, links without a path', async () => {
    const store = newStore();
    const root = await sample(store);
    expect(outline(await listPages(store, root))).toEqual([
      'Intro (intro)',
      'Guides (guides)',
      '  Setup (guides/setup)',
      '  Usage (guides/usage)',
      '    CLI (guides/usage/cli)',
      '  Home (-)',
    ]);
  });

  it('reads a page by id and by path, with its document', async () => {
    const store = newStore();
    const root = await sample(store);
    const cli = await getPage(store, root, 'cli');
    expect(cli).toMatchObject({ id: 'cli', title: 'CLI', parent: 'usage', path: 'guides/usage/cli' });
    expect(cli).not.toHaveProperty('position');
    expect(await getPageByPath(store, root, '/guides/usage/cli/')).toEqual(cli);
    expect(await getPageByPath(store, root, 'guides')).toMatchObject({ id: 'guides', type: 'group' });
    expect(await getPageByPath(store, root, 'guides/nope')).toBeUndefined();
    expect(await getPageByPath(store, root, 'guides//usage')).toBeUndefined();
    expect(await getPage(store, root, 'nope')).toBeUndefined();
    const intro = await getPage(store, root, 'intro');
    expect(await getDocument(store, intro?.documentId as string)).toEqual(doc(['a', 'Hello']));
  });

  it('inserts at an index among siblings, and appends without one', async () => {
    const store = newStore();
    let root = await sample(store);
    root = await edit(store, root, async (e) => {
      await e.insertPage({
        id: 'first',
        type: 'document',
        title: 'First',
        slug: 'first',
        parent: 'guides',
        index: 0,
      });
      await e.insertPage({
        id: 'mid',
        type: 'document',
        title: 'Mid',
        slug: 'mid',
        parent: 'guides',
        index: 2,
      });
      await e.insertPage({
        id: 'far',
        type: 'document',
        title: 'Far',
        slug: 'far',
        parent: 'guides',
        index: 99,
      });
    });
    expect(await listChildren(store, root, 'guides')).toEqual([
      'first',
      'setup',
      'mid',
      'usage',
      'home',
      'far',
    ]);
  });

  it('updates fields, the slug (and so the paths below) and the document; null removes a field', async () => {
    const store = newStore();
    let root = await sample(store);
    root = await edit(store, root, async (e) => {
      await e.updatePage('usage', {
        title: 'Using it',
        slug: 'using',
        emoji: '1f600',
        document: doc(['b', 'Body']),
      });
      await e.updatePage('intro', { description: 'About', document: null });
    });
    expect(await getPage(store, root, 'cli')).toMatchObject({ path: 'guides/using/cli' });
    expect(await getPageByPath(store, root, 'guides/usage')).toBeUndefined();
    const usage = await getPage(store, root, 'usage');
    expect(usage).toMatchObject({
      title: 'Using it',
      slug: 'using',
      emoji: '1f600',
      documentId: hashOf(doc(['b', 'Body'])),
    });
    const intro = await getPage(store, root, 'intro');
    expect(intro).toMatchObject({ description: 'About' });
    expect(intro).not.toHaveProperty('documentId');
    root = await edit(store, root, (e) => e.updatePage('usage', { emoji: null }));
    expect(await getPage(store, root, 'usage')).not.toHaveProperty('emoji');
  });

  it('moves a page with its subtree, to another parent or another index', async () => {
    const store = newStore();
    let root = await sample(store);
    root = await edit(store, root, async (e) => {
      await e.movePage('usage', { parent: 'intro' });
      await e.movePage('home', { index: 0 });
    });
    expect(outline(await listPages(store, root))).toEqual([
      'Intro (intro)',
      '  Usage (intro/usage)',
      '    CLI (intro/usage/cli)',
      'Guides (guides)',
      '  Home (-)',
      '  Setup (guides/setup)',
    ]);
    root = await edit(store, root, (e) => e.movePage('usage', { parent: null, index: 0 }));
    expect(await listChildren(store, root, null)).toEqual(['usage', 'intro', 'guides']);
  });

  it('keeps a move in place when neither parent nor index changes', async () => {
    const store = newStore();
    const root = await sample(store);
    expect(await edit(store, root, (e) => e.movePage('setup', {}))).toBe(root);
    expect(await edit(store, root, (e) => e.movePage('setup', { parent: 'guides', index: 0 }))).toBe(root);
  });

  it('deletes a page with its subtree', async () => {
    const store = newStore();
    let root = await sample(store);
    let deleted: string[] = [];
    root = await edit(store, root, async (e) => {
      deleted = await e.deletePage('guides');
    });
    expect(deleted.sort()).toEqual(['cli', 'guides', 'home', 'setup', 'usage']);
    expect(outline(await listPages(store, root))).toEqual(['Intro (intro)']);
    expect(await getPageByPath(store, root, 'guides/setup')).toBeUndefined();
  });

  it("refuses what GitBook's tree does not allow", async () => {
    const store = newStore();
    const root = await sample(store);
    const editor = await ContentEditor.open(store, root);
    const page = { type: 'document' as const, title: 'X' };
    await refused(editor.insertPage({ ...page, id: 'x', slug: 'setup', parent: 'guides' }), 'conflict');
    await refused(editor.insertPage({ ...page, id: 'intro', slug: 'other' }), 'conflict');
    await refused(editor.insertPage({ ...page, id: 'x', slug: 'x', parent: 'nope' }), 'not_found');
    await refused(editor.insertPage({ ...page, id: 'x', slug: 'x', parent: 'home' }), 'invalid');
    await refused(editor.insertPage({ ...page, id: 'x/y', slug: 'x' }), 'invalid');
    await refused(editor.insertPage({ ...page, id: 'x', slug: 'a/b' }), 'invalid');
    await refused(editor.insertPage({ ...page, id: 'x' }), 'invalid');
    await refused(editor.insertPage({ ...page, id: 'x', slug: 'x', title: '' }), 'invalid');
    await refused(
      editor.insertPage({ id: 'g', type: 'group', title: 'G', slug: 'g', parent: 'intro' }),
      'invalid',
    );
    await refused(editor.insertPage({ id: 'l', type: 'link', title: 'L', slug: 'l' }), 'invalid');
    await refused(editor.movePage('guides', { parent: 'intro' }), 'invalid');
    await refused(editor.movePage('usage', { parent: 'cli' }), 'invalid');
    await refused(editor.movePage('usage', { parent: 'usage' }), 'invalid');
    await refused(editor.updatePage('setup', { slug: 'usage' }), 'conflict');
    await refused(editor.updatePage('setup', { type: 'link' } as never), 'invalid');
    await refused(editor.updatePage('setup', { slug: null }), 'invalid');
    await refused(editor.updatePage('nope', { title: 'T' }), 'not_found');
    await refused(editor.deletePage('nope'), 'not_found');
    expect(editor.commit().root).toBe(root);
  });

  it('lets pages of one batch swap slugs, as long as no two hold one at the end', async () => {
    const store = newStore();
    let root = await sample(store);
    root = await edit(store, root, async (e) => {
      await e.updatePage('setup', { slug: 'tmp' });
      await e.updatePage('usage', { slug: 'setup' });
      await e.updatePage('setup', { slug: 'usage' });
    });
    expect(await getPageByPath(store, root, 'guides/usage')).toMatchObject({ id: 'setup' });
    expect(await getPageByPath(store, root, 'guides/setup/cli')).toMatchObject({ id: 'cli' });
  });

  it('keeps files, reusable contents and variables', async () => {
    const store = newStore();
    const file = {
      id: 'f1',
      name: 'a.png',
      contentType: 'image/png',
      downloadURL: 'https://x/a.png',
      size: 10,
    };
    let root = await edit(store, null, async (e) => {
      await e.putFile(file);
      await e.putFile({ ...file, id: 'f2', name: 'b.png' });
      await e.putReusableContent({ id: 'r1', title: 'Snippet', document: doc(['s', 'Shared']) });
      e.setVariables({ product: 'Docs' });
    });
    expect((await listFiles(store, root)).map((f) => f.name)).toEqual(['a.png', 'b.png']);
    expect(await getReusableContent(store, root, 'r1')).toMatchObject({
      title: 'Snippet',
      documentId: hashOf(doc(['s', 'Shared'])),
    });
    expect(await getVariables(store, root)).toEqual({ product: 'Docs' });
    root = await edit(store, root, async (e) => {
      await e.putFile({ ...file, name: 'renamed.png' });
      await e.deleteFile('f2');
      await e.deleteReusableContent('r1');
      e.setVariables({});
    });
    expect(await getFile(store, root, 'f1')).toMatchObject({ name: 'renamed.png' });
    expect(await getFile(store, root, 'f2')).toBeUndefined();
    expect(await getReusableContent(store, root, 'r1')).toBeUndefined();
    expect(await getVariables(store, root)).toEqual({});
    const editor = await ContentEditor.open(store, root);
    await refused(editor.deleteFile('f2'), 'not_found');
    await refused(editor.deleteReusableContent('r1'), 'not_found');
  });

  it('makes the same root from the same content, whatever the order of the edits', async () => {
    const one = newStore();
    const two = newStore();
    const a = await edit(one, null, async (e) => {
      await e.insertPage({ id: 'p1', type: 'document', title: 'One', slug: 'one' });
      await e.insertPage({ id: 'p2', type: 'document', title: 'Two', slug: 'two' });
      await e.updatePage('p1', { title: 'First' });
    });
    const b = await edit(two, null, async (e) => {
      await e.insertPage({ id: 'p1', type: 'document', title: 'First', slug: 'one' });
      await e.insertPage({ id: 'p2', type: 'document', title: 'Two', slug: 'two' });
    });
    expect(a).toBe(b);
  });

  it('answers the same root and creates nothing when the edits change nothing', async () => {
    const store = newStore();
    const root = await sample(store);
    const editor = await ContentEditor.open(store, root);
    await editor.updatePage('setup', { title: 'Changed' });
    await editor.updatePage('setup', { title: 'Setup' });
    expect(editor.commit()).toEqual({ root, created: new Map() });
  });

  it('commits only the objects the new root needs', async () => {
    const store = newStore();
    const editor = await ContentEditor.open(store, null);
    await editor.insertPage({
      id: 'p1',
      type: 'document',
      title: 'Draft',
      slug: 'p',
      document: doc(['a', 'draft']),
    });
    await editor.updatePage('p1', { title: 'Final', document: doc(['a', 'final']) });
    const { root, created } = editor.commit();
    const values = [...created.values()].map((v) => JSON.stringify(v));
    expect(values.some((v) => v.includes('Draft') || v.includes('"draft"'))).toBe(false);
    store.add(created);
    expect(outline(await listPages(store, root))).toEqual(['Final (p)']);
  });
});
