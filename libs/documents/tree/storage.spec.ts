import { readContent } from './content';
import { CountingStore, doc, edit, newStore } from './content.testing';
import { ContentEditor } from './editor';
import { canonicalJson, type Hash } from './hash';
import type { MapNode } from './merkle-map';
import { storedBytes } from './objects';
import { getPage, getPageByPath } from './page-tree';

/** A realistic body: ten paragraphs, about 1.6 KB. */
const body = (id: string, version = 0) =>
  doc(
    ...Array.from({ length: 10 }, (_, i): [string, string] => [
      `${id}-${i}`,
      `Paragraph ${i} of ${id}, version ${version}.`,
    ]),
  );

/**
 * A 1,020-page space: ten groups; one holds 290 pages, the nine others 20 pages with 3 children each,
 * so that the space has both a long list of siblings and pages three levels deep.
 */
async function bigSpace() {
  const store = newStore();
  const root = await edit(store, null, async (e) => {
    for (let g = 0; g < 10; g++) {
      await e.insertPage({ id: `g${g}`, type: 'group', title: `Group ${g}`, slug: `group-${g}` });
      for (let p = 0; p < (g === 0 ? 290 : 20); p++) {
        const id = `g${g}p${p}`;
        await e.insertPage({
          id,
          type: 'document',
          title: `Page ${id}`,
          slug: `page-${p}`,
          parent: `g${g}`,
          document: body(id),
        });
        for (let c = 0; g > 0 && c < 3; c++) {
          const child = `${id}c${c}`;
          await e.insertPage({
            id: child,
            type: 'document',
            title: `Page ${child}`,
            slug: `child-${c}`,
            parent: id,
            document: body(child),
          });
        }
      }
    }
  });
  return { store, root };
}

/** How many nodes a walk from the root of a map to a leaf reads, at most. */
async function height(store: ReturnType<typeof newStore>, root: Hash, map: 'pages' | 'slugs') {
  const content = await readContent(store, root);
  return ((await store.get(content[map] as Hash)) as MapNode).h + 1;
}

describe('storage and reads of a 1,000-page space', () => {
  let space: Awaited<ReturnType<typeof bigSpace>>;
  beforeAll(async () => {
    space = await bigSpace();
  }, 120_000);

  it('stores a one-page edit in under 10 KB besides the page’s new document', async () => {
    const { store, root } = space;
    const cases: Array<[string, (e: ContentEditor) => Promise<unknown>, number]> = [
      ['document', (e) => e.updatePage('g5p7c1', { document: body('g5p7c1', 1) }), 1],
      ['title', (e) => e.updatePage('g0p100', { title: 'Renamed' }), 0],
      ['slug', (e) => e.updatePage('g0p100', { slug: 'renamed' }), 0],
      [
        'insert',
        (e) =>
          e.insertPage({
            id: 'new',
            type: 'document',
            title: 'New',
            slug: 'new',
            parent: 'g0',
            index: 40,
            document: body('new'),
          }),
        1,
      ],
      ['move', (e) => e.movePage('g3p2c0', { parent: 'g0', index: 3 }), 0],
      ['delete a leaf', (e) => e.deletePage('g8p19c2'), 0],
    ];
    for (const [name, change, documents] of cases) {
      const editor = await ContentEditor.open(store, root);
      await change(editor);
      const { created } = editor.commit();
      const docBytes = documents === 0 ? 0 : Buffer.byteLength(canonicalJson(body('x')));
      const treeBytes = storedBytes(created) - docBytes;
      expect({ name, under10KB: treeBytes < 10_000 }).toEqual({ name, under10KB: true });
    }
  });

  it('reads a page by id or by path in O(depth × log n) objects', async () => {
    const counting = new CountingStore(space.store);
    const pages = await height(space.store, space.root, 'pages');
    const slugs = await height(space.store, space.root, 'slugs');
    // Nodes of 4 entries on average: a map of n keys is about log4(n) levels deep.
    expect(Math.max(pages, slugs)).toBeLessThanOrEqual(Math.ceil(Math.log(1020) / Math.log(4)) + 3);
    // The content root, then for the page and each ancestor a walk down `pages` and the page object.
    const byId = (depth: number) => 1 + (depth + 1) * (pages + 1);
    counting.gets = 0;
    expect(await getPage(counting, space.root, 'g5p7c1')).toMatchObject({ path: 'group-5/page-7/child-1' });
    expect(counting.gets).toBeLessThanOrEqual(byId(2));
    counting.gets = 0;
    expect(await getPage(counting, space.root, 'g0p250')).toMatchObject({ path: 'group-0/page-250' });
    expect(counting.gets).toBeLessThanOrEqual(byId(1));
    // The content root, a walk down `slugs` per segment, then one down `pages` and the page object.
    counting.gets = 0;
    expect(await getPageByPath(counting, space.root, 'group-5/page-7/child-1')).toMatchObject({
      id: 'g5p7c1',
    });
    expect(counting.gets).toBeLessThanOrEqual(1 + 3 * slugs + pages + 1);
  });

  it('reads a page of an old revision at the cost of a new one: no history is replayed', async () => {
    const { store, root } = space;
    let latest = root;
    for (let i = 0; i < 30; i++)
      latest = await edit(store, latest, (e) => e.updatePage(`g${i % 10}p1`, { title: `v${i}` }));
    const counting = new CountingStore(store);
    await getPage(counting, root, 'g4p3c0');
    const old = counting.gets;
    counting.gets = 0;
    await getPage(counting, latest, 'g4p3c0');
    expect(old).toBe(counting.gets);
    expect(await getPage(store, root, 'g1p1')).toMatchObject({ title: 'Page g1p1' });
    expect(await getPage(store, latest, 'g9p1')).toMatchObject({ title: 'v29' });
  });
});
