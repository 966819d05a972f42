/**
 * GitBook's Markdown dialect, construct by construct: what each becomes in the document, the Markdown it
 * is written back as (GitBook's form), and that reading that Markdown gives the same document.
 */
import { schemaProblem } from '../../../../test/support/openapi';
import type { Document } from '../document';
import { leaf, nodesOf, paragraph, writtenBack } from '../document.testing';
import { markdownToDocument } from '../from-markdown';
import { gitbookDocument } from '../gitbook-document';
import { DEFAULT_MARKDOWN_LIMITS, markdownProblem } from '../markdown-limits';
import { documentToMarkdown } from '../to-markdown';

describe('math', () => {
  it('reads $$ fences and a lone $$…$$ as a math block, keeping TeX byte for byte', () => {
    const tex = 'w = \\sqrt[8]{a\\_b}_g \\[x\\] * y \\\\ z';
    expect(nodesOf(`$$ ${tex} $$`)).toEqual([
      { object: 'block', type: 'math', isVoid: true, data: { formula: tex } },
    ]);
    expect(writtenBack(`$$ ${tex} $$`)).toBe(`$$\n${tex}\n$$\n`);
    expect(nodesOf(`$$\n${tex}\n$$`)[0].data.formula).toBe(tex);
    expect(writtenBack(`$$\n${tex}\n$$`)).toBe(`$$\n${tex}\n$$\n`);
  });

  it('reads $$…$$ in text as inline math; single dollars stay text', () => {
    const [p] = nodesOf('Area $$\\pi r^2_1$$ costs $5 or $10.');
    expect(p.nodes).toEqual([
      { object: 'text', leaves: [leaf('Area ')] },
      { object: 'inline', type: 'inline-math', isVoid: true, data: { formula: '\\pi r^2_1' } },
      { object: 'text', leaves: [leaf(' costs $5 or $10.')] },
    ]);
    expect(writtenBack('Area $$\\pi r^2_1$$ costs $5 or $10.')).toBe(
      'Area $$\\pi r^2_1$$ costs $5 or $10.\n',
    );
  });

  it('keeps math in a list, a quote and a details body', () => {
    expect(writtenBack('* item\n\n  $$\n  a_1\n  $$\n* b $$x$$')).toBe(
      '* item\n  $$\n  a_1\n  $$\n* b $$x$$\n',
    );
    expect(writtenBack('> $$\n> x*y\n> $$')).toBe('> $$\n> x*y\n> $$\n');
    expect(nodesOf('* $$x$$')[0].nodes[0].nodes[0].type).toBe('math');
  });

  it('bounds runs of dollars, which the parser tries to the end of the paragraph for each length', () => {
    expect(markdownProblem(`${'$'.repeat(100)}x`, DEFAULT_MARKDOWN_LIMITS)).toMatch(
      /run of 100 "\$", at most 64/,
    );
  });

  it('escapes text dollars that would read as math', () => {
    const document = {
      object: 'document',
      data: {},
      nodes: [paragraph(leaf('costs $$5 and $$6'))],
    } as unknown as Document;
    const markdown = documentToMarkdown(document);
    expect(nodesOf(markdown)).toEqual([paragraph(leaf('costs $$5 and $$6'))]);
  });
});

describe('expandable (<details>)', () => {
  const details = '<details>\n\n<summary>Title <strong>b</strong></summary>\n\nBody *md*\n\n</details>';

  it('reads <details> + <summary> around Markdown as an expandable: title and body fragments', () => {
    expect(nodesOf(details)).toEqual([
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
            nodes: [paragraph(leaf('Title '), leaf('b', [{ object: 'mark', type: 'bold' }]))],
          },
          {
            object: 'fragment',
            fragment: 'expandable-body',
            type: 'expandable-body',
            nodes: [paragraph(leaf('Body '), leaf('md', [{ object: 'mark', type: 'italic' }]))],
          },
        ],
      },
    ]);
    expect(writtenBack(details)).toBe(`${details}\n`);
  });

  it('reads the summary on the opening line, and `open` as expanded by default', () => {
    const [block] = nodesOf('<details open><summary>T</summary>\n\nBody\n\n</details>');
    expect(block.type).toBe('expandable');
    expect(block.data).toEqual({ defaultExpanded: true });
    expect(writtenBack('<details open><summary>T</summary>\n\nBody\n\n</details>')).toBe(
      '<details open>\n\n<summary>T</summary>\n\nBody\n\n</details>\n',
    );
  });

  it('nests: details in details, a figure and math in a details, details in a list item', () => {
    const markdown = [
      '<details>',
      '',
      '<summary>Outer</summary>',
      '',
      '<details>',
      '',
      '<summary>Inner</summary>',
      '',
      '$$',
      'x_1',
      '$$',
      '',
      '</details>',
      '',
      '<figure><img src="a.png?x=1&amp;y=2" alt="A"><figcaption><p>Cap <em>x</em></p></figcaption></figure>',
      '',
      '</details>',
      '',
    ].join('\n');
    const [outer] = nodesOf(markdown);
    const body = outer.fragments[1].nodes;
    expect(body.map((n: { type: string }) => n.type)).toEqual(['expandable', 'images']);
    expect(body[0].fragments[1].nodes[0]).toEqual({
      object: 'block',
      type: 'math',
      isVoid: true,
      data: { formula: 'x_1' },
    });
    expect(writtenBack(markdown)).toBe(markdown);
    const item = '* item\n\n  <details>\n\n  <summary>T</summary>\n\n  body\n\n  </details>\n* two\n';
    expect(nodesOf(item)[0].nodes[0].nodes[1].type).toBe('expandable');
    expect(writtenBack(item)).toBe(item);
  });

  it.each([
    ['no closing tag', '<details>\n<summary>x</summary>\n\nunclosed'],
    ['no summary', '<details>\n\nbody\n\n</details>'],
    ['all in one HTML block', '<details><summary>x</summary>body</details>'],
    ['a closing tag alone', 'a\n\n</details>'],
    ['other attributes', '<details class="x">\n<summary>x</summary>\n\nb\n\n</details>'],
  ])('leaves HTML as it is with %s', (_, markdown) => {
    const read = nodesOf(markdown);
    expect(read.some((n: { type: string }) => n.type === 'expandable')).toBe(false);
    expect(read.some((n: { type: string; data: object }) => n.type === 'code')).toBe(true);
    writtenBack(markdown);
  });

  it('counts nested details towards the nesting bound', () => {
    const deep = '<details>\n<summary>x</summary>\n\n'.repeat(40) + '</details>\n\n'.repeat(40);
    expect(markdownProblem(deep, DEFAULT_MARKDOWN_LIMITS)).toMatch(/or expandables, at most 32/);
    const many = '<details>\n<summary>x</summary>\n\n</details>\n\n'.repeat(1000);
    expect(markdownProblem(many, DEFAULT_MARKDOWN_LIMITS)).toBeUndefined();
  });

  it('pairs many unpaired openings in linear time', () => {
    const started = Date.now();
    const markdown = '<details>\n<summary>x</summary>\n\n'.repeat(5000);
    expect(nodesOf(markdown).every((n: { type: string }) => n.type === 'code')).toBe(true);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('image blocks (<figure>)', () => {
  it('reads a figure as an images block, its figcaption the caption; writes it back as a figure', () => {
    const figure =
      '<figure><img src="a.png?x=1&amp;y=2" alt="A cat"><figcaption><p>The <strong>cat</strong></p></figcaption></figure>';
    expect(nodesOf(figure)).toEqual([
      {
        object: 'block',
        type: 'images',
        isVoid: false,
        data: { markdown: 'figure' },
        nodes: [
          {
            object: 'block',
            type: 'image',
            isVoid: true,
            data: { ref: { kind: 'url', url: 'a.png?x=1&y=2' }, alt: 'A cat' },
            fragments: [
              {
                object: 'fragment',
                fragment: 'caption',
                nodes: [paragraph(leaf('The '), leaf('cat', [{ object: 'mark', type: 'bold' }]))],
              },
            ],
          },
        ],
      },
    ]);
    expect(writtenBack(figure)).toBe(`${figure}\n`);
    const bare = '<figure><img src="a.png" alt=""><figcaption></figcaption></figure>';
    expect(nodesOf(bare)[0].nodes[0].fragments).toEqual([]);
    expect(writtenBack(bare)).toBe(`${bare}\n`);
  });

  it('writes an image read from image syntax back as image syntax, a line break in its title included', () => {
    expect(writtenBack('![a](u "two\nlines")')).toBe('![a](u "two\nlines")\n');
    const figure = '<figure><img src="u" alt="a"><figcaption><p>two<br>lines</p></figcaption></figure>';
    expect(writtenBack(figure)).toBe(`${figure}\n`);
  });

  it('writes a caption an image title cannot hold (formatting, a blank line) as a figure', () => {
    const image = (...leaves: object[]): Document =>
      ({
        object: 'document',
        data: {},
        nodes: [
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
                data: { ref: { kind: 'url', url: 'u' } },
                fragments: [{ object: 'fragment', fragment: 'caption', nodes: [paragraph(...leaves)] }],
              },
            ],
          },
        ],
      }) as Document;
    for (const caption of [leaf('a\nb'), leaf('a\n\nb'), leaf('a', [{ object: 'mark', type: 'italic' }])])
      expect(schemaProblem('JSONDocument', gitbookDocument(image(caption)))).toBeUndefined();
    expect(documentToMarkdown(image(leaf('a\nb')))).toBe('![](u "a\nb")\n');
    expect(documentToMarkdown(image(leaf('a\n\nb')))).toBe(
      '<figure><img src="u" alt=""><figcaption><p>a<br><br>b</p></figcaption></figure>\n',
    );
    expect(documentToMarkdown(image(leaf('a', [{ object: 'mark', type: 'italic' }])))).toBe(
      '<figure><img src="u" alt=""><figcaption><p><em>a</em></p></figcaption></figure>\n',
    );
  });

  it('leaves other figures as HTML', () => {
    for (const markdown of [
      '<figure><img src="a.png" class="wide"></figure>',
      '<figure><img src="a.png"><figcaption><p>a</p><p>b</p></figcaption></figure>',
      '<figure><video src="a.mp4"></video></figure>',
    ]) {
      expect(nodesOf(markdown)[0].type).toBe('code');
      writtenBack(markdown);
    }
  });
});

describe('color marks (<mark style>)', () => {
  it("reads GitBook's colors as the color mark, nested ones combined", () => {
    const [p] = nodesOf(
      '<mark style="color:red;">r **b**</mark><mark style="background-color:$primary;">bg</mark>',
    );
    const red = { object: 'mark', type: 'color', data: { text: 'red', background: 'default' } };
    expect(p.nodes).toEqual([
      {
        object: 'text',
        leaves: [
          leaf('r ', [red]),
          leaf('b', [{ object: 'mark', type: 'bold' }, red]),
          leaf('bg', [{ object: 'mark', type: 'color', data: { text: 'default', background: '$primary' } }]),
        ],
      },
    ]);
    expect(writtenBack('a <mark style="color:red;">red **b**</mark> c')).toBe(
      'a <mark style="color:red;">red **b**</mark> c\n',
    );
    expect(writtenBack('<mark style="color:red">x<mark style="background-color:blue;">y</mark></mark>')).toBe(
      '<mark style="color:red;">x</mark><mark style="color:red;background-color:blue;">y</mark>\n',
    );
  });

  it('keeps a plain <mark>, unknown colors and unpaired tags as inline HTML', () => {
    for (const markdown of [
      'a <mark>plain</mark> b',
      'a <mark style="color:#f00;">hex</mark>',
      'a <mark style="font-weight:bold;">x</mark>',
      'a <mark style="color:red;">unclosed',
      'closed</mark> only',
    ]) {
      const [p] = nodesOf(markdown);
      expect(JSON.stringify(p)).not.toContain('"color"');
      expect(writtenBack(markdown)).toBe(`${markdown}\n`);
    }
  });
});

describe('buttons (<a class="button">)', () => {
  it('reads a button link as an inline button', () => {
    const markdown =
      '<a href="https://x.y/a?b&amp;c" class="button primary">Go now</a> or <a href="/b" class="button secondary">B</a>';
    const [p] = nodesOf(markdown);
    expect(p.nodes[1]).toEqual({
      object: 'inline',
      type: 'button',
      isVoid: true,
      data: { kind: 'primary', ref: { kind: 'url', url: 'https://x.y/a?b&c' }, label: 'Go now' },
    });
    expect(p.nodes[3].data.kind).toBe('secondary');
    expect(writtenBack(markdown)).toBe(`${markdown}\n`);
    // GitBook's schema cannot hold a button (see gitbook-document.ts): answered as a link.
    const view = gitbookDocument(markdownToDocument(markdown).document);
    expect((view.nodes[0] as { nodes: { type?: string }[] }).nodes[1].type).toBe('link');
  });

  it('keeps other links as inline HTML', () => {
    for (const markdown of [
      '<a href="x">not</a>',
      '<a href="x" class="button">x</a>',
      '<a href="x" class="button primary">**b**</a>',
    ]) {
      expect(JSON.stringify(nodesOf(markdown))).not.toContain('"button"');
      writtenBack(markdown);
    }
  });
});

describe('what Markdown written back used to lose', () => {
  it('keeps a loose list loose (data.spread) and a tight one tight', () => {
    expect(nodesOf('* a\n\n* b')[0].data).toEqual({ spread: true });
    expect(nodesOf('3. a\n\n4. b')[0].data).toEqual({ start: 3, spread: true });
    expect(writtenBack('* a\n\n* b\n')).toBe('* a\n\n* b\n');
    expect(writtenBack('* a\n* b\n')).toBe('* a\n* b\n');
    expect(gitbookDocument(markdownToDocument('* a\n\n* b').document).nodes[0].data).toEqual({});
  });

  it('writes a table after a nested list in a list item apart, so that it stays a table', () => {
    const markdown = '* a\n  * x\n\n  | a | b |\n  | - | - |\n  | 1 | 2 |\n* b\n';
    expect(nodesOf(markdown)[0].nodes[0].nodes.map((n: { type: string }) => n.type)).toEqual([
      'paragraph',
      'list-unordered',
      'table',
    ]);
    expect(writtenBack(markdown)).toBe('* a\n\n  * x\n\n  | a | b |\n  | - | - |\n  | 1 | 2 |\n* b\n');
  });

  it('keeps a wide table (130 cells) and every alignment, an explicit left one included', () => {
    const aligns = [':--', '---', ':-:', '--:'];
    const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
    const markdown = [
      row(Array.from({ length: 13 }, (_, i) => `h${i}`)),
      row(Array.from({ length: 13 }, (_, i) => aligns[i % 4])),
      ...Array.from({ length: 9 }, (_, r) => row(Array.from({ length: 13 }, (_, i) => `c${r}-${i}`))),
    ].join('\n');
    const [table] = nodesOf(markdown);
    expect(Object.keys(table.data.records)).toHaveLength(9);
    expect(table.fragments).toHaveLength(117);
    expect(table.data.definition['col-1']).toEqual({
      id: 'col-1',
      title: 'h0',
      type: 'text',
      textAlignment: 'left',
      markdown: 'aligned',
    });
    const out = writtenBack(markdown);
    expect(out.split('\n')[1]).toMatch(/^\| :-+ \| -+ \| :-+: \| -+: \| :-+ \|/);
  });

  it('writes character references back as what renders the same: invisible characters as references', () => {
    expect(writtenBack('a&nbsp;b &copy; &#123; &amp; x&shy;y &#x200B;')).toBe(
      'a&#xA0;b © { & x&#xAD;y &#x200B;\n',
    );
  });

  it('resolves reference links and images into inline ones that render the same', () => {
    const markdown =
      '[full][Ref] [collapsed][] [shortcut] ![img][ref]\n\n> [in quote][q]\n\n[ref]: /u "T"\n[collapsed]: <a b>\n[shortcut]: /s\n[q]: https://q.example/(x)';
    expect(writtenBack(markdown)).toBe(
      '[full](/u "T") [collapsed](<a b>) [shortcut](/s) ![img](/u "T")\n\n> [in quote](https://q.example/\\(x\\))\n',
    );
  });
});

describe('each construct in each container', () => {
  const MATH = '$$\nx^2\n$$';
  const DETAILS = '<details>\n<summary>T <strong>b</strong></summary>\n\nbody *x*\n\n</details>';
  const EMPTY_DETAILS = '<details open><summary>T</summary>\n\n</details>';
  const FIGURE =
    '<figure><img src="a.png" alt="A"><figcaption><p>Cap <em>x</em> <a href="u">l</a></p></figcaption></figure>';
  const MARK = '<mark style="color:red;background-color:$info;">red **b** $$y$$</mark>';
  const BUTTON = '<a href="/x" class="button secondary" data-icon="gear">Go</a>';
  const indent = (markdown: string, by: string) =>
    markdown
      .split('\n')
      .map((line) => by + line)
      .join('\n');
  const inContainers = (b: string): string[] => [
    b,
    indent(b, '> '),
    `- item\n\n${indent(b, '  ')}`,
    `- a\n  - b\n\n${indent(b, '    ')}`,
    `a [^1]\n\n[^1]: x\n\n${indent(b, '    ')}`,
    `<details><summary>O</summary>\n\n${b}\n\n</details>`,
    `<details><summary>O</summary>\n\n<details><summary>I</summary>\n\n${b}\n\n</details>\n\n</details>`,
  ];
  const inLines = (i: string): string[] => [
    `# h ${i}`,
    `| a | b |\n| - | - |\n| ${i} | c |`,
    ...(i.startsWith('<a ') ? [] : [`[l ${i}](u)`]),
    `*a ${i} b*`,
    `a [^1]\n\n[^1]: | a |\n    | - |\n    | ${i} |`,
    `<details><summary>${i}</summary>\n\nb\n\n</details>`,
  ];
  const cases = [
    ...[MATH, DETAILS, EMPTY_DETAILS, FIGURE, `a ${MARK} b`, `a ${BUTTON} b`, 'a $$x_1$$ b'].flatMap(
      inContainers,
    ),
    ...[MARK, BUTTON, '$$x$$'].flatMap(inLines),
  ];

  it.each(cases)('%j: read back the same, and valid in GitBook view', (markdown) => {
    const { document } = markdownToDocument(markdown);
    expect(markdownToDocument(documentToMarkdown(document)).document).toEqual(document);
    const view = gitbookDocument(document);
    expect(schemaProblem('JSONDocument', view)).toBeUndefined();
    expect(gitbookDocument(view)).toEqual(view);
  });
});
