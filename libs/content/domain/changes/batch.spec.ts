import { ContentEditor } from '@app/documents/tree/editor';
import fc from 'fast-check';
import { applyContentChanges } from './apply';
import { contextFor, givenSpace, outline, whenApplied, whenRefused } from './changes.testing';
import type { ContentChangeInput } from './types';

const insert = (title: string, fields: Record<string, unknown> = {}): ContentChangeInput =>
  ({ operation: 'insert_page', title, document: {}, ...fields }) as ContentChangeInput;
const update = (page: string, fields: Record<string, unknown> = {}): ContentChangeInput =>
  ({ operation: 'update_page', page, ...fields }) as ContentChangeInput;
const remove = (page: string): ContentChangeInput => ({ operation: 'delete_page', page });

describe('a batch of changes', () => {
  it('reports each page once, in the order first touched, by what became of it over the batch', async () => {
    const space = await givenSpace();
    const applied = await whenApplied(space, [
      update('setup'),
      insert('Created then updated', { ref: 'kept' }),
      update('n1', { title: 'Renamed' }),
      insert('Created then deleted'),
      remove('n2'),
      update('usage'),
      remove('usage'),
      update('setup', { title: 'Again' }),
      remove('intro'),
      { operation: 'revert_page', page: 'intro' },
    ]);
    expect(applied.outcomes).toEqual([
      { object: 'updated_page', page: 'setup' },
      { object: 'created_page', page: 'n1', ref: 'kept' },
      { object: 'deleted_page', page: 'usage' },
      // Deleted then restored from the base: it is there before and after.
      { object: 'updated_page', page: 'intro' },
    ]);
  });

  it('applies in order: a later change sees the pages of earlier ones', async () => {
    const space = await givenSpace();
    await whenApplied(space, [insert('Parent'), insert('Child', { into: 'n1' }), update('n2', { at: 0 })]);
    expect((await outline(space)).slice(-2)).toEqual(['Parent (parent)', '  Child (parent/child)']);
  });

  it('refuses no changes, more than 50, and an unknown operation', async () => {
    const space = await givenSpace();
    expect(await whenRefused(space, [])).toMatchObject({
      kind: 'invalid',
      message: 'changes: must list 1 to 50 changes',
    });
    const many = Array.from({ length: 51 }, (_, i) => insert(`P${i}`));
    expect(await whenRefused(space, many)).toMatchObject({ kind: 'invalid' });
    expect((await whenApplied(space, many.slice(0, 50))).outcomes).toHaveLength(50);
    const unknown = { operation: 'rename_page', page: 'intro' } as unknown as ContentChangeInput;
    expect(await whenRefused(space, [insert('Ok'), unknown])).toMatchObject({
      kind: 'invalid',
      message:
        'changes[1].operation: must be one of insert_page, update_page, delete_page, revert_page, insert_files',
    });
  });

  it('a refused change anywhere in a batch leaves the committed root and the store as they were', async () => {
    /** Valid changes on the sample tree, each touching pages the batch itself keeps. */
    const valid: ContentChangeInput[] = [
      insert('New'),
      update('setup', { title: 'Setup 2', document: { markdown: '# Setup 2\n\nBody' } }),
      update('usage', { into: null }),
      { operation: 'insert_files', files: [{ name: 'a.png', url: 'https://x.test/a.png' }] },
      { operation: 'revert_page', page: 'intro' },
      remove('intro'),
    ];
    const refused: ContentChangeInput[] = [
      remove('nope'),
      update('guides', { into: 'setup' }),
      insert('Dup', { slug: 'guides' }),
      { operation: 'revert_page', page: 'intro', revision: 'nope' },
      { operation: 'insert_files', files: [{ name: 'a', base64: 'AAAA' }] },
    ];
    const space = await givenSpace();
    const [root, size] = [space.root, space.store.size];
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(valid),
        fc.constantFrom(...refused),
        fc.nat(),
        async (changes, bad, at) => {
          const batch = [...changes];
          batch.splice(at % (batch.length + 1), 0, bad);
          const error = await whenRefused(space, batch);
          expect(error.message).toMatch(new RegExp(`^changes\\[${batch.indexOf(bad)}\\]`));
          expect(space.root).toBe(root);
          expect(space.store.size).toBe(size);
          // The same batch without the refused change applies (on a copy of the editor, not committed).
          const editor = await ContentEditor.open(space.store, space.root);
          if (changes.length > 0) await applyContentChanges(editor, changes, contextFor(space));
        },
      ),
      { numRuns: 40 },
    );
  });
});
