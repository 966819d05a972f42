import type { ContentChangeInput } from '@app/content/domain/changes';
import { batches, importRepository, MAX_BATCH_CHANGES, readRepository } from './gitsync-import';

const FIXTURE = 'test/fixtures/gitsync';

type Change = Record<string, unknown> & { operation: string };

/** Imports the fixture into a recording writer: pages `id<n>`, files `f<n>`. */
async function recorded() {
  const sent: Change[][] = [];
  let n = 0;
  const result = await importRepository(await readRepository(FIXTURE), async (changes) => {
    const batch = changes as unknown as Change[];
    sent.push(batch);
    return {
      pages: new Map(batch.flatMap((c) => (c.ref ? [[c.ref as string, `id${++n}`] as const] : []))),
      files: batch.flatMap((c) => (Array.isArray(c.files) ? c.files.map(() => `f${++n}`) : [])),
    };
  });
  return { sent, result };
}

describe('importing a Git Sync repository', () => {
  it('sends files, then pages a level at a time, then bodies with links by id', async () => {
    const { sent, result } = await recorded();
    expect(sent.map((batch) => batch.map((c) => c.operation))).toEqual([
      ['insert_files'],
      Array(5).fill('insert_page'),
      Array(5).fill('insert_page'),
      ['insert_page'],
      // Every page but the missing one.
      Array(9).fill('update_page'),
    ]);
    expect(result).toMatchObject({ pages: 11, files: 4, batches: 5 });
    expect(sent[1].map((c) => [c.title, c.slug, c.type ?? 'document'])).toEqual([
      ['Welcome', 'welcome', 'document'],
      ['Getting started', 'getting-started', 'document'],
      ['Latest', 'latest', 'document'],
      ['Missing page', 'missing', 'document'],
      ['Reference', 'reference', 'group'],
    ]);
    // The pages of the second level go into those of the first, by id.
    expect(sent[2].map((c) => c.into)).toEqual(['id6', 'id6', 'id7', 'id9', 'id9']);
    const welcome = sent[4].find((c) => c.page === 'id5')?.document as { markdown: string };
    expect(welcome.markdown).toContain(
      '[installing it](/pages/id10), then read about [hints](/pages/id13#hints)',
    );
    expect(welcome.markdown).toContain('![The logo](/files/f2)');
  });

  it('reports exactly what it could not convert', async () => {
    const { result } = await recorded();
    expect(result.problems).toEqual([
      'SUMMARY.md: names missing.md, which is not in the repository (imported as an empty page)',
      '.gitbook.yaml: the redirect old/start → getting-started/README.md is not imported (spaces here have no redirects)',
      "getting-started/README.md: links to ../outside.md, a page outside SUMMARY.md's tree (left as a URL)",
      'getting-started/install.md: links to ../.gitbook/assets/gone.png, an asset missing from the repository (left as a URL)',
      'reference/blocks.md: {% unknown-tag %} left as text',
      // What GitBook's Markdown on this branch keeps as text: each drops out once it becomes a block.
      ...['<figure>', '<details>', '$$ math', '<mark>', 'button']
        .filter((c) => result.problems.includes(`reference/pending.md: ${c} left as text`))
        .map((c) => `reference/pending.md: ${c} left as text`),
    ]);
  });

  it('refuses a folder that is no Git Sync repository', async () => {
    await expect(readRepository('test/fixtures/nope')).rejects.toThrow('no such folder');
    await expect(readRepository('apps')).rejects.toThrow('SUMMARY.md: not found');
  });
});

describe('batches', () => {
  const page = (markdown: string) =>
    ({ operation: 'insert_page', document: { markdown } }) as unknown as ContentChangeInput;

  it(`hold at most ${MAX_BATCH_CHANGES} changes and the bytes given, a larger change alone`, () => {
    expect(batches(Array.from({ length: 120 }, () => page('x'))).map((b) => b.length)).toEqual([50, 50, 20]);
    const sizes = batches(
      [page('a'.repeat(600)), page('b'.repeat(600)), page('c'.repeat(2000)), page('d')],
      1400,
    );
    expect(sizes.map((b) => b.length)).toEqual([2, 1, 1]);
  });
});
