import type { Document } from './document';
import { leaf, nodesOf, paragraph } from './document.testing';
import { markdownToDocument } from './from-markdown';
import { normalizeMarkdown } from './markdown-syntax';
import { documentToMarkdown } from './to-markdown';

const roundTrip = (markdown: string) => documentToMarkdown(markdownToDocument(markdown).document);

describe('markdownToDocument and documentToMarkdown, by construct', () => {
  it('maps headings 1 to 3 to heading-1..3', () => {
    expect(nodesOf('# One\n\n## Two\n\n### Three')).toEqual([
      { object: 'block', type: 'heading-1', data: {}, nodes: [{ object: 'text', leaves: [leaf('One')] }] },
      { object: 'block', type: 'heading-2', data: {}, nodes: [{ object: 'text', leaves: [leaf('Two')] }] },
      { object: 'block', type: 'heading-3', data: {}, nodes: [{ object: 'text', leaves: [leaf('Three')] }] },
    ]);
  });

  it('maps bold, italic, strikethrough and code to marks in one order, nested ones on the same leaf', () => {
    expect(nodesOf('**b** *i* ~~s~~ `c` ***~~all~~***')).toEqual([
      paragraph(
        leaf('b', ['bold']),
        leaf(' '),
        leaf('i', ['italic']),
        leaf(' '),
        leaf('s', ['strikethrough']),
        leaf(' '),
        leaf('c', ['code']),
        leaf(' '),
        leaf('all', ['bold', 'italic', 'strikethrough']),
      ),
    ]);
    expect(roundTrip('*a **b** `c`* d')).toBe('*a **b** `c`* d\n');
  });

  it('maps a link to an inline link with a URL ref, its title kept, marks inside and around it', () => {
    const [p] = nodesOf('*see [the **docs**](https://example.com "Docs") now*');
    expect(p.nodes[1]).toEqual({
      object: 'inline',
      type: 'link',
      data: { ref: { kind: 'url', url: 'https://example.com' }, title: 'Docs' },
      nodes: [{ object: 'text', leaves: [leaf('the ', ['italic']), leaf('docs', ['bold', 'italic'])] }],
    });
    expect(roundTrip('*see [the **docs**](https://example.com "Docs") now*')).toBe(
      '*see [the **docs**](https://example.com "Docs") now*\n',
    );
    expect(roundTrip('[**bold link**](/a) and www.example.com')).toBe(
      '[**bold link**](/a) and [www.example.com](http://www.example.com)\n',
    );
  });

  it('maps an image alone in a top-level paragraph to an images block, elsewhere to an inline image', () => {
    expect(nodesOf('![A cat](cat.png "The cat")')).toEqual([
      {
        object: 'block',
        type: 'images',
        isVoid: false,
        data: {},
        nodes: [
          {
            object: 'block',
            type: 'image',
            isVoid: true,
            data: { ref: { kind: 'url', url: 'cat.png' }, alt: 'A cat' },
            fragments: [{ object: 'fragment', fragment: 'caption', nodes: [paragraph(leaf('The cat'))] }],
          },
        ],
      },
    ]);
    const [p] = nodesOf('Look: ![A cat](cat.png "The cat")');
    expect(p.nodes[1]).toEqual({
      object: 'inline',
      type: 'inline-image',
      isVoid: true,
      data: { ref: { kind: 'url', url: 'cat.png' }, alt: 'A cat', caption: 'The cat' },
    });
    expect(roundTrip('![A cat](cat.png "The cat")\n\n* ![x](y.png)')).toBe(
      '![A cat](cat.png "The cat")\n\n* ![x](y.png)\n',
    );
  });

  it('maps bullet, ordered and task lists, nested, with their start and checks', () => {
    const markdown = '3. three\n4. four\n   * [x] done\n   * [ ] todo\n   * plain\n';
    const [ordered] = nodesOf(markdown);
    expect(ordered.type).toBe('list-ordered');
    expect(ordered.data).toEqual({ start: 3 });
    const tasks = ordered.nodes[1].nodes[1];
    expect(tasks.type).toBe('list-tasks');
    expect(tasks.nodes.map((item: { data: object }) => item.data)).toEqual([
      { checked: true },
      { checked: false },
      {},
    ]);
    expect(nodesOf('* a\n* b')[0].type).toBe('list-unordered');
    expect(roundTrip(markdown)).toBe(normalizeMarkdown(markdown));
    expect(roundTrip('1. [x] ordered task')).toBe('1. [x] ordered task\n');
  });

  it('keeps a list item with several paragraphs loose where Markdown must be', () => {
    const markdown = '* one\n\n  more of one\n* two\n';
    expect(roundTrip(markdown)).toBe(normalizeMarkdown(markdown));
    expect(roundTrip(markdown)).toBe('* one\n\n  more of one\n* two\n');
  });

  it('maps a blockquote to a blockquote, with whatever Markdown nests in it', () => {
    const [quote] = nodesOf('> quoted\n>\n> ```js\n> x\n> ```');
    expect(quote.type).toBe('blockquote');
    expect(quote.nodes.map((n: { type: string }) => n.type)).toEqual(['paragraph', 'code']);
    expect(roundTrip('> quoted\n>\n> ```js\n> x\n> ```')).toBe('> quoted\n>\n> ```js\n> x\n> ```\n');
  });

  it('maps fenced code to a code block of code lines, with its language and the rest of its info string', () => {
    expect(nodesOf('```ts title="a.ts"\nconst a = 1;\n\nexport {};\n```')).toEqual([
      {
        object: 'block',
        type: 'code',
        data: { syntax: 'ts', meta: 'title="a.ts"' },
        nodes: ['const a = 1;', '', 'export {};'].map((line) => ({
          object: 'block',
          type: 'code-line',
          data: {},
          nodes: [{ object: 'text', leaves: [leaf(line)] }],
        })),
      },
    ]);
    expect(roundTrip('```\n```')).toBe('```\n```\n');
    expect(roundTrip('    indented')).toBe('```\nindented\n```\n');
  });

  it('maps a thematic break to a divider', () => {
    expect(nodesOf('a\n\n---\n\nb')[1]).toEqual({ object: 'block', type: 'divider', isVoid: true, data: {} });
    expect(roundTrip('---')).toBe('***\n');
  });

  it('maps a GFM table to a table block of text columns, records and cell fragments', () => {
    const [table] = nodesOf('| Name | *Size* |\n| --- | :-: |\n| a | 1 |\n| b |');
    expect(table).toEqual({
      object: 'block',
      type: 'table',
      isVoid: true,
      data: {
        view: { type: 'grid', columns: ['col-1', 'col-2'], hideHeader: false },
        records: {
          'row-1': { orderIndex: 'a000000', values: { 'col-1': 'cell-1-1', 'col-2': 'cell-1-2' } },
          'row-2': { orderIndex: 'a000001', values: { 'col-1': 'cell-2-1' } },
        },
        definition: {
          'col-1': { id: 'col-1', title: 'Name', type: 'text', textAlignment: 'left' },
          'col-2': { id: 'col-2', title: 'Size', type: 'text', textAlignment: 'center' },
        },
      },
      fragments: [
        { object: 'fragment', fragment: 'title-2', nodes: [paragraph(leaf('Size', ['italic']))] },
        { object: 'fragment', fragment: 'cell-1-1', nodes: [paragraph(leaf('a'))] },
        { object: 'fragment', fragment: 'cell-1-2', nodes: [paragraph(leaf('1'))] },
        { object: 'fragment', fragment: 'cell-2-1', nodes: [paragraph(leaf('b'))] },
      ],
    });
    expect(roundTrip('| Name | *Size* |\n| --- | :-: |\n| a | 1 |\n| b |')).toBe(
      '| Name | *Size* |\n| ---- | :----: |\n| a    |    1   |\n| b    |\n',
    );
  });

  it('keeps hard breaks as GitBook line breaks and soft breaks apart', () => {
    expect(nodesOf('a\\\nb\nc')).toEqual([
      paragraph(leaf('a\nb'), leaf('\n', [], { markdown: 'soft-break' }), leaf('c')),
    ]);
    expect(roundTrip('a  \nb\nc')).toBe('a\\\nb\nc\n');
  });

  it('keeps HTML: a block as an html code block, inline HTML as a marked leaf', () => {
    expect(nodesOf('<div>\nhi\n</div>')[0]).toMatchObject({
      type: 'code',
      data: { syntax: 'html', markdown: 'html' },
    });
    expect(nodesOf('a <b>b</b>')).toEqual([
      paragraph(
        leaf('a '),
        leaf('<b>', [], { markdown: 'html' }),
        leaf('b'),
        leaf('</b>', [], { markdown: 'html' }),
      ),
    ]);
    expect(roundTrip('<div>\nhi\n</div>\n\na <b>b</b>\n\n```html\n<p>code</p>\n```')).toBe(
      '<div>\nhi\n</div>\n\na <b>b</b>\n\n```html\n<p>code</p>\n```\n',
    );
  });

  it('maps a footnote to an annotation on its label, its definition the body, written back at the end', () => {
    const [p] = nodesOf('Text[^1].\n\n[^1]: The *note*.');
    expect(p.nodes[1]).toEqual({
      object: 'inline',
      type: 'annotation',
      isVoid: false,
      data: {},
      nodes: [{ object: 'text', leaves: [leaf('1')] }],
      fragments: [
        {
          object: 'fragment',
          type: 'annotation-body',
          nodes: [paragraph(leaf('The '), leaf('note', ['italic']), leaf('.'))],
        },
      ],
    });
    expect(roundTrip('[^a]: First.\n\nA[^a] and B[^a].')).toBe('A[^a] and B[^a].\n\n[^a]: First.\n');
  });

  it('reads and writes frontmatter beside the document', () => {
    const { document, frontmatter } = markdownToDocument('---\ntitle: Hello\ntags: [a, b]\n---\n\n# Hello');
    expect(frontmatter).toEqual({ title: 'Hello', tags: ['a', 'b'] });
    expect(documentToMarkdown(document, frontmatter)).toBe(
      '---\ntitle: Hello\ntags:\n  - a\n  - b\n---\n\n# Hello\n',
    );
    expect(documentToMarkdown(document)).toBe('# Hello\n');
  });

  it('reads an empty Markdown as an empty document', () => {
    expect(markdownToDocument('')).toEqual({
      document: { object: 'document', data: {}, nodes: [] },
      frontmatter: {},
    });
    expect(documentToMarkdown({ object: 'document', data: {}, nodes: [] })).toBe('');
  });
});

describe('what the conversion normalizes (README.md, "What is not lossless")', () => {
  it.each([
    ['headings 4 to 6 become heading 3', '#### Four\n\n###### Six', '### Four\n\n### Six\n'],
    ['reference links become inline links', '[a][r] ![i][r]\n\n[r]: /u "T"', '[a](/u "T") ![i](/u "T")\n'],
    ['a mark over exactly one link moves into it', '*[a](u)*', '[*a*](u)\n'],
    ['two marks over the same text nest bold outside', '*__a__*', '**_a_**\n'],
    ['an image loses the marks around it', '*![i](u)*', '![i](u)\n'],
    ['footnote definitions move to the end', '[^1]: Note.\n\nA[^1]\n\nB', 'A[^1]\n\nB\n\n[^1]: Note.\n'],
    ['unused definitions are dropped', 'A\n\n[^1]: Note.\n\n[r]: /u', 'A\n'],
    ['cells past the header are dropped', '| a |\n| - |\n| 1 | 2 |', '| a |\n| - |\n| 1 |\n'],
  ])('%s', (_, markdown, expected) => {
    expect(roundTrip(markdown)).toBe(expected);
  });

  it('rewrites the YAML of frontmatter, keeping its data', () => {
    const { document, frontmatter } = markdownToDocument("---\n# comment\ntitle: 'Hi'\n---\n");
    expect(documentToMarkdown(document, frontmatter)).toBe('---\ntitle: Hi\n---\n');
  });
});

describe('documentToMarkdown of GitBook documents not read from Markdown', () => {
  const document = (nodes: unknown[]) => ({ object: 'document', data: {}, nodes }) as Document;

  it('writes a newline in text as a hard break, and ignores marks Markdown has no syntax for', () => {
    const doc = document([paragraph(leaf('one\ntwo'), leaf('key', ['keyboard', 'bold']))]);
    expect(documentToMarkdown(doc)).toBe('one\\\ntwo**key**\n');
  });

  it('writes page and anchor references as GitBook does, and emoji as characters', () => {
    const link = (ref: object, label: string) => ({
      object: 'inline',
      type: 'link',
      data: { ref },
      nodes: [{ object: 'text', leaves: [leaf(label)] }],
    });
    const doc = document([
      {
        object: 'block',
        type: 'paragraph',
        data: {},
        nodes: [
          link({ kind: 'page', page: 'p1' }, 'page'),
          { object: 'text', leaves: [leaf(' ')] },
          link({ kind: 'anchor', anchor: 'intro' }, 'anchor'),
          { object: 'inline', type: 'emoji', isVoid: true, data: { code: '1f600' } },
        ],
      },
    ]);
    expect(documentToMarkdown(doc)).toBe('[page](/pages/p1) [anchor](#intro)😀\n');
  });

  it("keeps the content of blocks Markdown has no syntax for, an expandable in GitBook's <details>", () => {
    const doc = document([
      { object: 'block', type: 'hint', data: { style: 'info' }, nodes: [paragraph(leaf('Careful'))] },
      {
        object: 'block',
        type: 'expandable',
        isVoid: true,
        data: {},
        fragments: [
          {
            object: 'fragment',
            fragment: 'expandable-title',
            type: 'expandable-title',
            nodes: [paragraph(leaf('More'))],
          },
          {
            object: 'fragment',
            fragment: 'expandable-body',
            type: 'expandable-body',
            nodes: [paragraph(leaf('Body'))],
          },
        ],
      },
    ]);
    // A hint is written in GitBook's dialect (dialect/liquid-tags.spec.ts), an expandable as GitBook's
    // `<details>` (dialect/dialect.spec.ts).
    expect(documentToMarkdown(doc)).toBe(
      '{% hint style="info" %}\nCareful\n{% endhint %}\n\n<details>\n\n<summary>More</summary>\n\nBody\n\n</details>\n',
    );
  });
});

describe('Markdown at the edges of the syntax', () => {
  it.each([
    'Use `` a`b `` and `|` here.',
    '[x](<a b> "t") [y](u(1))',
    '![](empty.png)',
    '> > nested\n>\n> back',
    '* \n* b',
    '- [ ]\n- [x] done',
    '## Title ##',
    'Setext\n======',
    'a <!-- c --> b',
    '<https://x.y> &copy; &#65;',
    '| `a|b` | c |\n| - | - |\n| \\| | |',
    '1) one\n2) two',
    'Hello\\\n',
    '***\n___',
    '> # Quote heading\n> * list',
    'a[^1]\n\n[^1]: > quoted\n    | t |\n    | - |',
    '~single~ and ~~double~~',
    '**bold**text and *a*b',
    '<div>\n\n*md inside*\n\n</div>',
    '* a\n  ```\n  code\n  ```\n* b',
    'Line with trailing spaces   ',
    'tab\tin text',
    '\\*not emphasis\\*',
    '![a](u "two\nlines")',
  ])('%j is canonical after the round trip, and its document survives Markdown', (markdown) => {
    const { document } = markdownToDocument(markdown);
    const written = documentToMarkdown(document);
    expect(written).toBe(normalizeMarkdown(markdown));
    expect(markdownToDocument(written).document).toEqual(document);
  });
});
