import { markdownToDocument } from '@app/documents/document';
import {
  buildTree,
  constructsLeftAsText,
  GitSyncConfigError,
  linkTarget,
  parseGitbookYaml,
  parseSummary,
  rewriteLinks,
  slugFromFile,
} from '.';

describe('.gitbook.yaml', () => {
  it("gives GitBook's defaults without a file", () => {
    expect(parseGitbookYaml(undefined)).toEqual({
      root: '',
      readme: 'README.md',
      summary: 'SUMMARY.md',
      redirects: {},
    });
  });

  it('reads root, structure and redirects, paths normalized', () => {
    const text =
      'root: ./docs/\nstructure:\n  readme: ./intro.md\n  summary: product/SUMMARY.md\nredirects:\n  old/page: new/page.md\n';
    expect(parseGitbookYaml(text)).toEqual({
      root: 'docs',
      readme: 'intro.md',
      summary: 'product/SUMMARY.md',
      redirects: { 'old/page': 'new/page.md' },
    });
  });

  it.each([
    ['root: [1, 2]', 'root must be a path'],
    ['root: ../elsewhere', 'root leaves the repository'],
    ['structure: nope', 'structure must be a mapping'],
    ['redirects:\n  a: 1', 'redirects.a must be a path'],
    ['- a list', 'must be a mapping'],
    ['root: "unclosed', 'not YAML'],
  ])('refuses %j', (text, message) => {
    expect(() => parseGitbookYaml(text)).toThrow(GitSyncConfigError);
    expect(() => parseGitbookYaml(text)).toThrow(message);
  });
});

describe('SUMMARY.md', () => {
  it('gives pages with titles and nesting, groups from headings 2, the heading 1 ignored', () => {
    const summary = parseSummary(
      [
        '# Table of contents',
        '',
        '* [Welcome](README.md)',
        '* [Guides](guides/README.md)',
        '  * [Install **it**](guides/install.md "Install")',
        '    * [Deep](<guides/deep page.md>)',
        '  * [Café](guides/caf%C3%A9.md#top)',
        '',
        '## Reference',
        '',
        '* [API](reference/api.md)',
        '* Plain text',
        '  * [Kept](reference/kept.md)',
        '* [Elsewhere](https://example.com)',
      ].join('\n'),
    );
    expect(summary.skipped).toEqual(['Plain text', 'Elsewhere']);
    expect(summary.entries).toEqual([
      { kind: 'page', title: 'Welcome', file: 'README.md', children: [] },
      {
        kind: 'page',
        title: 'Guides',
        file: 'guides/README.md',
        children: [
          {
            kind: 'page',
            title: 'Install it',
            file: 'guides/install.md',
            linkTitle: 'Install',
            children: [{ kind: 'page', title: 'Deep', file: 'guides/deep page.md', children: [] }],
          },
          { kind: 'page', title: 'Café', file: 'guides/café.md', children: [] },
        ],
      },
      {
        kind: 'group',
        title: 'Reference',
        children: [
          { kind: 'page', title: 'API', file: 'reference/api.md', children: [] },
          { kind: 'page', title: 'Kept', file: 'reference/kept.md', children: [] },
        ],
      },
    ]);
  });

  it("reads links relative to the summary's own folder", () => {
    const { entries } = parseSummary('* [A](a.md)\n* [B](../b.md)\n', 'product/SUMMARY.md');
    expect(entries.map((e) => (e.kind === 'page' ? e.file : ''))).toEqual(['product/a.md', 'b.md']);
  });
});

describe('slugs from file names', () => {
  it.each([
    ['guides/install.md', 'Install', 'install'],
    ['guides/README.md', 'Guides', 'guides'],
    ['guides/readme.md', 'Guides', 'guides'],
    ['README.md', 'Welcome home', 'welcome-home'],
    ['Getting Started.md', 'x', 'getting-started'],
    ['über/café.md', 'x', 'café'],
    ['latest/README.md', 'x', 'latest'],
    ['a/v1.2_beta.md', 'x', 'v1.2_beta'],
  ])('%s (titled %s) is %s', (file, title, slug) => {
    expect(slugFromFile(file, title)).toBe(slug);
  });
});

describe('the page tree', () => {
  const { entries } = parseSummary(
    [
      '* [Guides](guides/README.md)',
      '  * [Install](guides/install.md)',
      '  * [Install again](other/install.md)',
      '  * [Twice](guides/install.md)',
      '## API reference',
      '* [Calls](api/calls.md)',
    ].join('\n'),
  );

  it("lists parents before children in SUMMARY.md's order, slugs unique among siblings, a file once", () => {
    const tree = buildTree(entries);
    expect(tree.pages).toEqual([
      { key: 'p1', type: 'document', title: 'Guides', slug: 'guides', file: 'guides/README.md', depth: 0 },
      {
        key: 'p2',
        type: 'document',
        title: 'Install',
        slug: 'install',
        parent: 'p1',
        file: 'guides/install.md',
        depth: 1,
      },
      {
        key: 'p3',
        type: 'document',
        title: 'Install again',
        slug: 'install-2',
        parent: 'p1',
        file: 'other/install.md',
        depth: 1,
      },
      { key: 'p4', type: 'group', title: 'API reference', slug: 'api-reference', depth: 0 },
      {
        key: 'p5',
        type: 'document',
        title: 'Calls',
        slug: 'calls',
        parent: 'p4',
        file: 'api/calls.md',
        depth: 1,
      },
    ]);
    expect(tree.repeated).toEqual(['guides/install.md']);
    expect(tree.byFile.get('other/install.md')).toBe('p3');
  });

  it('puts the readme first when SUMMARY.md does not list it, and takes a slug a page gives itself', () => {
    const tree = buildTree(entries, {
      readme: 'README.md',
      readmeTitle: 'Welcome',
      slugOf: (file) => (file === 'api/calls.md' ? '/latest/' : undefined),
    });
    expect(tree.pages.map((p) => `${p.title}:${p.slug}`)).toEqual([
      'Welcome:welcome',
      'Guides:guides',
      'Install:install',
      'Install again:install-2',
      'API reference:api-reference',
      'Calls:latest',
    ]);
  });
});

describe('links of a page', () => {
  const folders = new Set(['guides', 'guides/sub']);
  const target = (url: string, from = 'guides/install.md') => linkTarget(url, from, (p) => folders.has(p));

  it('resolve relative paths to pages (files, folders) and assets, with anchors', () => {
    expect(target('usage.md')).toEqual({ kind: 'page', file: 'guides/usage.md' });
    expect(target('../README.md#top')).toEqual({ kind: 'page', file: 'README.md', anchor: 'top' });
    expect(target('sub')).toEqual({ kind: 'page', file: 'guides/sub/README.md' });
    expect(target('./')).toEqual({ kind: 'page', file: 'guides/README.md' });
    expect(target('<My Page.md>')).toEqual({ kind: 'page', file: 'guides/My Page.md' });
    expect(target('caf%C3%A9.md')).toEqual({ kind: 'page', file: 'guides/café.md' });
    expect(target('../.gitbook/assets/image (1).png')).toEqual({
      kind: 'asset',
      file: '.gitbook/assets/image (1).png',
    });
    expect(target('../../../etc/passwd')).toEqual({ kind: 'outside', url: '../../../etc/passwd' });
  });

  it.each(['https://example.com/a.md', 'mailto:a@b.c', '#anchor', '/absolute', '{{ vars.url }}', ''])(
    'leave %j alone',
    (url) => {
      expect(target(url)).toBeUndefined();
    },
  );

  it('are rewritten in links, images, definitions and URL attributes, not in code', () => {
    const markdown = [
      '[Usage](usage.md) and ![Chart](<img 1.png> "Title") [![inner](a.png)](b.md)',
      '{% content-ref url="usage.md" %}',
      '[usage.md](usage.md)',
      '{% endcontent-ref %}',
      '<figure><img src="a.png" alt=""></figure> {% file src=\'a.png\' %}',
      '[ref]: usage.md',
      '`[code](usage.md)` [ext](https://x.test)',
      '```',
      '[in code](usage.md)',
      '```',
    ].join('\n');
    const table: Record<string, string> = {
      'usage.md': '/pages/U',
      'img 1.png': '/files/I',
      'a.png': '/files/A',
      'b.md': '/pages/B',
    };
    expect(rewriteLinks(markdown, (url) => table[url])).toBe(
      [
        '[Usage](/pages/U) and ![Chart](/files/I "Title") [![inner](/files/A)](/pages/B)',
        '{% content-ref url="/pages/U" %}',
        '[usage.md](/pages/U)',
        '{% endcontent-ref %}',
        '<figure><img src="/files/A" alt=""></figure> {% file src=\'/files/A\' %}',
        '[ref]: /pages/U',
        '`[code](usage.md)` [ext](https://x.test)',
        '```',
        '[in code](usage.md)',
        '```',
      ].join('\n'),
    );
  });
});

describe('constructs left as text', () => {
  it('name HTML blocks and inline tags, buttons, unknown tags and math, once each; blocks and code are not', () => {
    const { document } = markdownToDocument(
      [
        '<details>\n<summary>More</summary>\nBody\n</details>',
        'Some <mark>marked</mark> and <mark>again</mark> text, $$E=mc^2$$.',
        '<a href="https://x.test" class="button primary">Go</a>',
        '{% unknown-tag %}',
        '{% hint style="info" %}\nA hint.\n{% endhint %}',
        '```html\n<div>code</div> {% raw %}\n```',
      ].join('\n\n'),
    );
    const left = constructsLeftAsText(document);
    // What the Markdown of main keeps as text; a construct that becomes a block drops out.
    for (const name of ['{% unknown-tag %}']) expect(left).toContain(name);
    expect(
      left.filter((n) => !['<details>', '<mark>', '$$ math', 'button', '{% unknown-tag %}'].includes(n)),
    ).toEqual([]);
    expect(new Set(left).size).toBe(left.length);
  });
});
