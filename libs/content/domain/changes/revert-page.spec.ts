import { doc, edit } from '@app/documents/tree/content.testing';
import type { JsonValue } from '@app/documents/tree/hash';
import {
  AT,
  documentOf,
  givenSpace,
  outline,
  pageOf,
  type Space,
  whenApplied,
  whenRefused,
} from './changes.testing';
import type { ContentChangeInput } from './types';

const revert = (page: string, fields: Record<string, unknown> = {}): ContentChangeInput =>
  ({ operation: 'revert_page', page, ...fields }) as ContentChangeInput;

/** A change request on a base: `intro`, `guides` › `setup`, `usage`, with bodies and fields; then `edits`. */
async function givenChangeRequest(edits: Parameters<typeof edit>[2]): Promise<Space> {
  const space = await givenSpace(async (e) => {
    await e.insertPage({
      id: 'intro',
      type: 'document',
      title: 'Intro',
      slug: 'intro',
      description: 'About',
    });
    await e.insertPage({ id: 'guides', type: 'document', title: 'Guides', slug: 'guides' });
    await e.insertPage({ id: 'setup', type: 'document', title: 'Setup', slug: 'setup', parent: 'guides' });
    await e.insertPage({
      id: 'usage',
      type: 'document',
      title: 'Usage',
      slug: 'usage',
      parent: 'guides',
      createdAt: '2020-01-01T00:00:00.000Z',
      document: doc(['a', 'A'], ['b', 'B'], ['c', 'C'], ['d', 'D']),
    });
  });
  space.root = await edit(space.store, space.root, edits);
  return space;
}

/** The body's blocks as `key:text`. */
async function blocks(space: Space, id: string): Promise<string[]> {
  const nodes = ((await documentOf(space, id))?.nodes ?? []) as unknown as Array<Record<string, JsonValue>>;
  return nodes.map((n) => `${n.key}:${JSON.stringify(n).match(/"text":"([^"]*)"/)?.[1]}`);
}

describe('revert_page, whole page', () => {
  it('restores the fields and the body of a modified page, which stays where it is now', async () => {
    const space = await givenChangeRequest(async (e) => {
      await e.updatePage('usage', { title: 'Using', emoji: '1f600', document: doc(['z', 'Z']) });
      await e.movePage('usage', { parent: null });
    });
    const applied = await whenApplied(space, [revert('usage')]);
    expect(applied.outcomes).toEqual([{ object: 'updated_page', page: 'usage' }]);
    const page = await pageOf(space, 'usage');
    expect(page).toMatchObject({
      title: 'Usage',
      path: 'usage',
      createdAt: '2020-01-01T00:00:00.000Z',
      updatedAt: AT,
    });
    expect(page).not.toHaveProperty('emoji');
    expect(await blocks(space, 'usage')).toEqual(['a:A', 'b:B', 'c:C', 'd:D']);
  });

  it('deletes a page the base does not have, with its subtree', async () => {
    const space = await givenChangeRequest(async (e) => {
      await e.insertPage({ id: 'added', type: 'document', title: 'Added', slug: 'added' });
      await e.insertPage({ id: 'below', type: 'document', title: 'Below', slug: 'below', parent: 'added' });
    });
    const applied = await whenApplied(space, [revert('added')]);
    expect(applied.outcomes).toEqual([
      { object: 'deleted_page', page: 'added' },
      { object: 'deleted_page', page: 'below' },
    ]);
    expect(await outline(space)).not.toContain('Added (added)');
  });

  it('inserts a deleted page again as it was, at its old place under its old parent', async () => {
    const space = await givenChangeRequest((e) => e.deletePage('setup'));
    const applied = await whenApplied(space, [revert('setup')]);
    expect(applied.outcomes).toEqual([{ object: 'created_page', page: 'setup' }]);
    expect(await outline(space)).toEqual([
      'Intro (intro)',
      'Guides (guides)',
      '  Setup (guides/setup)',
      '  Usage (guides/usage)',
    ]);
    expect(await pageOf(space, 'setup')).toMatchObject({ title: 'Setup', updatedAt: AT });
  });

  it('inserts a deleted page at the top when its old parent is gone too, with its body', async () => {
    const space = await givenChangeRequest((e) => e.deletePage('guides'));
    await whenApplied(space, [revert('usage')]);
    expect(await outline(space)).toEqual(['Intro (intro)', 'Usage (usage)']);
    expect(await blocks(space, 'usage')).toEqual(['a:A', 'b:B', 'c:C', 'd:D']);
  });

  it('reverts to a given revision rather than the base', async () => {
    const space = await givenChangeRequest((e) => e.updatePage('intro', { title: 'Second' }));
    space.revisions.set('r2', space.root);
    space.root = await edit(space.store, space.root, (e) => e.updatePage('intro', { title: 'Third' }));
    await whenApplied(space, [revert('intro', { revision: 'r2' })]);
    expect(await pageOf(space, 'intro')).toMatchObject({ title: 'Second', description: 'About' });
  });

  it('with an empty base (null), deletes the page', async () => {
    const space = await givenChangeRequest(async () => {});
    const applied = await whenApplied(space, [revert('intro')], { baseRoot: null });
    expect(applied.outcomes).toEqual([{ object: 'deleted_page', page: 'intro' }]);
  });

  it('refuses an unknown revision, and a page in neither version', async () => {
    const space = await givenChangeRequest(async () => {});
    expect(await whenRefused(space, [revert('intro', { revision: 'nope' })])).toMatchObject({
      kind: 'not_found',
      message: 'changes[0].revision: revision nope not found',
    });
    expect(await whenRefused(space, [revert('nope')])).toMatchObject({
      kind: 'not_found',
      message: 'changes[0].page: page nope is in neither the change request nor the revision',
    });
  });
});

describe('revert_page, by block', () => {
  /** Base body a b c d; now d (moved) a x (added) c (modified), b deleted; the title changed too. */
  const edited = () =>
    givenChangeRequest((e) =>
      e.updatePage('usage', {
        title: 'Using',
        document: doc(['d', 'D'], ['a', 'A'], ['x', 'X'], ['c', 'C2']),
      }),
    );

  it.each([
    ['an added block is removed', ['x'], ['d:D', 'a:A', 'c:C2']],
    ['a deleted block is restored after the block before it', ['b'], ['d:D', 'a:A', 'b:B', 'x:X', 'c:C2']],
    ['a modified block is reset in place', ['c'], ['d:D', 'a:A', 'x:X', 'c:C']],
    ['a moved block goes back after the block before it', ['d'], ['a:A', 'x:X', 'c:C2', 'd:D']],
    ['all of them give the old body', ['x', 'b', 'c', 'd'], ['a:A', 'b:B', 'c:C', 'd:D']],
  ])('%s; the rest of the page is untouched', async (_, keys, expected) => {
    const space = await edited();
    const applied = await whenApplied(space, [revert('usage', { block: keys })]);
    expect(await blocks(space, 'usage')).toEqual(expected);
    expect(await pageOf(space, 'usage')).toMatchObject({ title: 'Using', updatedAt: AT });
    expect(applied.outcomes).toEqual([{ object: 'updated_page', page: 'usage' }]);
  });

  it('removes the blocks of a page the base does not have', async () => {
    const space = await givenChangeRequest((e) =>
      e.insertPage({
        id: 'new',
        type: 'document',
        title: 'New',
        slug: 'new',
        document: doc(['p', 'P'], ['q', 'Q']),
      }),
    );
    await whenApplied(space, [revert('new', { block: ['p'] })]);
    expect(await blocks(space, 'new')).toEqual(['q:Q']);
  });

  it('refuses a key in neither version, an empty list, and a page that is gone', async () => {
    const space = await edited();
    expect(await whenRefused(space, [revert('usage', { block: ['a', 'nope'] })])).toMatchObject({
      kind: 'not_found',
      message: 'changes[0].block[1]: block nope is in neither version of the page',
    });
    expect(await whenRefused(space, [revert('usage', { block: [] })])).toMatchObject({ kind: 'invalid' });
    space.root = await edit(space.store, space.root, (e) => e.deletePage('usage'));
    expect(await whenRefused(space, [revert('usage', { block: ['a'] })])).toMatchObject({
      kind: 'not_found',
      message: 'changes[0].page: page usage not found',
    });
  });
});
