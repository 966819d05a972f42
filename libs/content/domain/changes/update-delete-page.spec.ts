import { edit } from '@app/documents/tree/content.testing';
import { AT, blockTexts, givenSpace, outline, pageOf, whenApplied, whenRefused } from './changes.testing';
import type { ContentChangeInput } from './types';

const update = (page: string, fields: Record<string, unknown>): ContentChangeInput =>
  ({ operation: 'update_page', page, ...fields }) as ContentChangeInput;

describe('update_page', () => {
  it('sets metadata fields; an empty emoji, icon or condition removes it; the slug stays unless given', async () => {
    const space = await givenSpace();
    space.root = await edit(space.store, space.root, (e) =>
      e.updatePage('setup', { emoji: '1f600', icon: 'gear', condition: 'x', description: 'Old' }),
    );
    const applied = await whenApplied(space, [
      update('setup', {
        title: 'Installing',
        description: 'New',
        hidden: true,
        emoji: '',
        icon: '',
        condition: '',
      }),
    ]);
    expect(applied.outcomes).toEqual([{ object: 'updated_page', page: 'setup' }]);
    const page = await pageOf(space, 'setup');
    expect(page).toMatchObject({
      title: 'Installing',
      slug: 'setup',
      description: 'New',
      hidden: true,
      updatedAt: AT,
    });
    for (const field of ['emoji', 'icon', 'condition']) expect(page).not.toHaveProperty(field);
  });

  it('replaces the body with Markdown whose frontmatter updates metadata; `{}` empties it', async () => {
    const space = await givenSpace();
    await whenApplied(space, [
      update('setup', {
        description: 'Ignored',
        document: { markdown: '---\ndescription: From YAML\nslug: install\n---\n# Setup\n\nSteps.' },
      }),
    ]);
    expect(await pageOf(space, 'setup')).toMatchObject({
      description: 'From YAML',
      slug: 'install',
      title: 'Setup',
    });
    // The heading repeats the title: it is not kept in the body.
    expect(await blockTexts(space, 'setup')).toEqual(['Steps.']);
    await whenApplied(space, [update('setup', { document: {} })]);
    expect(await pageOf(space, 'setup')).not.toHaveProperty('documentId');
  });

  it('moves with `into` (null: to the top) and `at`; absent `into` keeps the parent', async () => {
    const space = await givenSpace();
    await whenApplied(space, [
      update('usage', { at: 0 }),
      update('intro', { into: 'guides', at: 1 }),
      update('setup', { into: null }),
    ]);
    expect(await outline(space)).toEqual([
      'Guides (guides)',
      '  Usage (guides/usage)',
      '  Intro (guides/intro)',
      'Setup (setup)',
    ]);
  });

  it('refuses a page or parent that does not exist, and a move under the page itself', async () => {
    const space = await givenSpace();
    expect(await whenRefused(space, [update('nope', { title: 'X' })])).toMatchObject({
      kind: 'not_found',
      message: 'changes[0].page: page nope not found',
    });
    expect(await whenRefused(space, [update('setup', { into: 'nope' })])).toMatchObject({
      kind: 'not_found',
      message: 'changes[0].into: page nope not found',
    });
    expect(await whenRefused(space, [update('guides', { into: 'setup' })])).toMatchObject({
      kind: 'invalid',
      message: 'changes[0]: page guides cannot move under itself',
    });
    expect(await whenRefused(space, [update('setup', { slug: 'usage' })])).toMatchObject({
      kind: 'conflict',
    });
  });
});

describe('delete_page', () => {
  it('deletes a page and its subtree, each reported deleted', async () => {
    const space = await givenSpace();
    const applied = await whenApplied(space, [{ operation: 'delete_page', page: 'guides' }]);
    expect(applied.outcomes).toEqual([
      { object: 'deleted_page', page: 'guides' },
      { object: 'deleted_page', page: 'setup' },
      { object: 'deleted_page', page: 'usage' },
    ]);
    expect(await outline(space)).toEqual(['Intro (intro)']);
  });

  it('refuses a page that does not exist', async () => {
    const error = await whenRefused(await givenSpace(), [{ operation: 'delete_page', page: 'nope' }]);
    expect(error).toMatchObject({ kind: 'not_found', message: 'changes[0].page: page nope not found' });
  });
});
