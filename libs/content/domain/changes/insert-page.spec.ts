import {
  AT,
  blockTexts,
  documentOf,
  givenSpace,
  outline,
  pageOf,
  whenApplied,
  whenRefused,
} from './changes.testing';
import { slugify } from './slug';
import type { ContentChangeInput } from './types';

const insert = (fields: Record<string, unknown>): ContentChangeInput =>
  ({ operation: 'insert_page', ...fields }) as ContentChangeInput;

describe('insert_page', () => {
  it('inserts a document page under a parent at an index, dated, and reports it created with its ref', async () => {
    const space = await givenSpace();
    const applied = await whenApplied(space, [
      insert({ title: 'Install', into: 'guides', at: 1, ref: 'install', document: { markdown: 'Run it.' } }),
    ]);
    expect(applied.outcomes).toEqual([{ object: 'created_page', page: 'n1', ref: 'install' }]);
    expect(await outline(space)).toEqual([
      'Intro (intro)',
      'Guides (guides)',
      '  Setup (guides/setup)',
      '  Install (guides/install)',
      '  Usage (guides/usage)',
    ]);
    expect(await pageOf(space, 'n1')).toMatchObject({ type: 'document', createdAt: AT, updatedAt: AT });
    expect(await blockTexts(space, 'n1')).toEqual(['Run it.']);
  });

  it('appends at the top without `into` or `at`; a JSON document is kept as given; `{}` is an empty page', async () => {
    const space = await givenSpace();
    const document = { object: 'document', data: {}, nodes: [] };
    await whenApplied(space, [
      insert({ title: 'Json', document: { document } }),
      insert({ title: 'Empty', document: {} }),
    ]);
    expect((await outline(space)).slice(-2)).toEqual(['Json (json)', 'Empty (empty)']);
    expect(await documentOf(space, 'n1')).toEqual(document);
    expect(await pageOf(space, 'n2')).not.toHaveProperty('documentId');
  });

  it("inserts a page group at the top with `type: group` (Git Sync's `## Group`), pages going into it", async () => {
    const space = await givenSpace();
    await whenApplied(space, [insert({ type: 'group', title: 'Reference', document: {} })]);
    await whenApplied(space, [insert({ title: 'API', into: 'n1', document: { markdown: 'Calls.' } })], {
      newId: () => 'n2',
    });
    expect((await outline(space)).slice(-2)).toEqual(['Reference (reference)', '  API (reference/api)']);
    expect(await pageOf(space, 'n1')).toMatchObject({ type: 'group', title: 'Reference' });
    expect(await pageOf(space, 'n1')).not.toHaveProperty('documentId');
  });

  it.each([
    [
      'a group with a document',
      { type: 'group', title: 'G', document: { markdown: 'x' } },
      'document: a group has no document; give {}',
    ],
    [
      'a group below a page',
      { type: 'group', title: 'G', into: 'guides', document: {} },
      'into: groups are only at the top level',
    ],
    ['another type', { type: 'link', title: 'L', document: {} }, 'type: must be document or group'],
  ])('refuses %s', async (_, fields, message) => {
    expect(await whenRefused(await givenSpace(), [insert(fields)])).toMatchObject({
      kind: 'invalid',
      message: `changes[0].${message}`,
    });
  });

  describe('title', () => {
    it('is `title` when given, and a leading heading that repeats it is not kept in the body', async () => {
      const space = await givenSpace();
      await whenApplied(space, [
        insert({ title: 'New page', document: { markdown: '# New page\n\nThis is a new page.\n' } }),
        insert({ title: 'Other', document: { markdown: '# A heading\n\nText' } }),
      ]);
      expect(await pageOf(space, 'n1')).toMatchObject({ title: 'New page', slug: 'new-page' });
      expect(await blockTexts(space, 'n1')).toEqual(['This is a new page.']);
      expect(await blockTexts(space, 'n2')).toEqual(['A heading', 'Text']);
    });

    it("is the frontmatter's title, which takes precedence over `title`", async () => {
      const space = await givenSpace();
      await whenApplied(space, [
        insert({ title: 'Given', document: { markdown: '---\ntitle: From YAML\n---\nBody' } }),
      ]);
      expect(await pageOf(space, 'n1')).toMatchObject({ title: 'From YAML', slug: 'from-yaml' });
    });

    it('is the leading heading 1 when none is given, and the heading leaves the body (Git Sync)', async () => {
      const space = await givenSpace();
      await whenApplied(space, [insert({ document: { markdown: '# Getting *started*\n\nFirst steps.' } })]);
      expect(await pageOf(space, 'n1')).toMatchObject({ title: 'Getting started', slug: 'getting-started' });
      expect(await blockTexts(space, 'n1')).toEqual(['First steps.']);
    });

    it('is "Untitled" without title, frontmatter title or leading heading 1', async () => {
      const space = await givenSpace();
      await whenApplied(space, [insert({ document: { markdown: '## Not a title\n\nText' } })]);
      expect(await pageOf(space, 'n1')).toMatchObject({ title: 'Untitled', slug: 'untitled' });
      expect(await blockTexts(space, 'n1')).toEqual(['Not a title', 'Text']);
    });
  });

  describe('metadata', () => {
    it('takes the fields of the change, and the frontmatter over them', async () => {
      const space = await givenSpace();
      const markdown = [
        '---',
        'description: From YAML',
        'icon: book-open',
        'hidden: true',
        'layout:',
        '  width: wide',
        'cover: https://example.com/cover.png',
        'coverY: 12',
        'vars:',
        '  product: Docs',
        'unknown: ignored',
        '---',
        'Body',
      ].join('\n');
      await whenApplied(space, [
        insert({
          title: 'Page',
          description: 'Given',
          emoji: '1f600',
          noIndex: true,
          noRobotsIndex: false,
          condition: 'visitor.claims.paid',
          document: { markdown },
        }),
      ]);
      const page = await pageOf(space, 'n1');
      expect(page).toMatchObject({
        description: 'From YAML',
        icon: 'book-open',
        emoji: '1f600',
        hidden: true,
        noIndex: true,
        noRobotsIndex: false,
        condition: 'visitor.claims.paid',
        layout: { width: 'wide' },
        cover: { ref: { kind: 'url', url: 'https://example.com/cover.png' }, yPos: 12 },
        variables: { product: 'Docs' },
      });
      expect(page).not.toHaveProperty('unknown');
    });

    it('leaves out an emoji, icon or condition given as an empty string', async () => {
      const space = await givenSpace();
      await whenApplied(space, [insert({ title: 'P', emoji: '', icon: '', condition: '', document: {} })]);
      const page = await pageOf(space, 'n1');
      for (const field of ['emoji', 'icon', 'condition']) expect(page).not.toHaveProperty(field);
    });
  });

  describe('slug', () => {
    it('is derived from the title: lowercase ASCII words joined by "-", "page" when nothing is left', () => {
      expect(slugify('Hello, World!')).toBe('hello-world');
      expect(slugify('  Café   au lait ')).toBe('cafe-au-lait');
      expect(slugify('C++ & C# -- 2024_edition')).toBe('c-c-2024-edition');
      expect(slugify('日本語')).toBe('page');
      expect(slugify('🎉')).toBe('page');
      expect(slugify('a'.repeat(300)).length).toBeLessThanOrEqual(92);
    });

    it('when derived, is made unique among its siblings only, with -2, -3…', async () => {
      const space = await givenSpace();
      await whenApplied(space, [
        insert({ title: 'Setup', into: 'guides', document: {} }),
        insert({ title: 'Setup', into: 'guides', document: {} }),
        insert({ title: 'Setup', document: {} }),
      ]);
      expect(await pageOf(space, 'n1')).toMatchObject({ slug: 'setup-2', path: 'guides/setup-2' });
      expect(await pageOf(space, 'n2')).toMatchObject({ slug: 'setup-3' });
      expect(await pageOf(space, 'n3')).toMatchObject({ slug: 'setup', path: 'setup' });
    });

    it('when given (field or frontmatter), is kept as it is', async () => {
      const space = await givenSpace();
      await whenApplied(space, [
        insert({ title: 'A', slug: 'custom', document: {} }),
        insert({ title: 'B', slug: 'ignored', document: { markdown: '---\nslug: from-yaml\n---\n' } }),
      ]);
      expect(await pageOf(space, 'n1')).toMatchObject({ slug: 'custom' });
      expect(await pageOf(space, 'n2')).toMatchObject({ slug: 'from-yaml' });
    });
  });

  describe('refusals', () => {
    it('a given slug a sibling holds: conflict, naming the change', async () => {
      const space = await givenSpace();
      const before = space.root;
      const error = await whenRefused(space, [
        insert({ title: 'Fine', document: {} }),
        insert({ title: 'Setup', slug: 'setup', into: 'guides', document: {} }),
      ]);
      expect(error.kind).toBe('conflict');
      expect(error.message).toBe('changes[1]: slug "setup" is already used by page setup');
      expect(space.root).toBe(before);
    });

    it('a parent that does not exist: not found', async () => {
      const error = await whenRefused(await givenSpace(), [insert({ into: 'nope', document: {} })]);
      expect(error).toMatchObject({ kind: 'not_found', message: 'changes[0].into: page nope not found' });
    });

    it('Markdown over 1 MiB: too large, naming the field', async () => {
      const error = await whenRefused(await givenSpace(), [
        insert({ document: { markdown: 'x'.repeat(1024 * 1024 + 1) } }),
      ]);
      expect(error).toMatchObject({
        kind: 'too_large',
        message: expect.stringContaining('changes[0].document.markdown: is larger than 1 MiB'),
      });
    });

    it('bad frontmatter, a mistyped field, a malformed document: invalid', async () => {
      const space = await givenSpace();
      const cases: Array<[Record<string, unknown>, string]> = [
        [
          { document: { markdown: '---\n: [\n---\n' } },
          'changes[0].document.markdown: frontmatter is not valid YAML',
        ],
        [
          { document: { markdown: '---\nhidden: maybe\n---\n' } },
          'changes[0].document.markdown frontmatter.hidden',
        ],
        [{ title: '', document: {} }, 'changes[0].title: must be a non-empty string'],
        [{ hidden: 'yes', document: {} }, 'changes[0].hidden: must be a boolean'],
        [{ at: -1, document: {} }, 'changes[0].at: must be an integer'],
        [{ document: { html: '<p>' } }, 'changes[0].document: must be'],
        [{ document: { document: { nodes: 'no' } } }, 'changes[0].document.document: must be a document'],
        [{}, 'changes[0].document: must be'],
      ];
      for (const [fields, message] of cases) {
        const error = await whenRefused(space, [insert(fields)]);
        expect(error.kind).toBe('invalid');
        expect(error.message).toContain(message);
      }
    });

    it('a ref used twice in the batch, or that is the path of an existing page: conflict', async () => {
      const space = await givenSpace();
      const twice = await whenRefused(space, [
        insert({ ref: 'a', document: {} }),
        { operation: 'insert_files', files: [{ ref: 'a', name: 'a.png', url: 'https://x.test/a.png' }] },
      ]);
      expect(twice).toMatchObject({
        kind: 'conflict',
        message: 'changes[1].files[0].ref: ref "a" is used twice in the batch',
      });
      const path = await whenRefused(space, [insert({ ref: 'guides/setup', document: {} })]);
      expect(path).toMatchObject({
        kind: 'conflict',
        message: 'changes[0].ref: ref "guides/setup" is the path of an existing page',
      });
    });
  });
});
