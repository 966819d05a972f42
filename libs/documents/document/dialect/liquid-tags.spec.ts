import { schemaProblem } from '../../../../test/support/openapi';
import type { Document, DocumentNode } from '../document';
import { keysOf, leaf, nodesOf, paragraph, withoutKeys, writtenBack } from '../document.testing';
import { markdownToDocument } from '../from-markdown';
import { gitbookDocument } from '../gitbook-document';
import { DEFAULT_MARKDOWN_LIMITS, markdownProblem } from '../markdown-limits';
import { documentToMarkdown } from '../to-markdown';
import { parseTagLine, tagLine } from './liquid-tags';

const read = (markdown: string) => markdownToDocument(markdown).document;

/** Both round trips, the Markdown written being the canonical form of what was read. */
const canonical = (markdown: string) => writtenBack(markdown, { canonical: true });
const softBreak = { ...leaf('\n'), markdown: 'soft-break' };
const caption = (value: string) => [
  { object: 'fragment', fragment: 'caption', nodes: [paragraph(leaf(value))] },
];

describe('GitBook block tags: a tag line', () => {
  it('reads a name, attributes in double, single or no quotes, and escapes in quotes', () => {
    expect(parseTagLine('{% tab title="Say \\"hi\\"" %}')).toEqual({
      name: 'tab',
      closing: false,
      attributes: { title: 'Say "hi"' },
    });
    expect(parseTagLine(`  {%code title='a "b"' lineNumbers=true   %}  `)).toEqual({
      name: 'code',
      closing: false,
      attributes: { title: 'a "b"', lineNumbers: 'true' },
    });
    expect(parseTagLine('{% file src="C:\\dir\\a.pdf" %}')?.attributes).toEqual({ src: 'C:\\dir\\a.pdf' });
    expect(parseTagLine('{% endtabs %}')).toEqual({ name: 'tabs', closing: true, attributes: {} });
    expect(parseTagLine('{% swagger src="s.json" path="/a" method="get" %}')?.name).toBe('openapi');
    // GitBook's own pages have written URLs autolinked in tags.
    expect(parseTagLine('{% embed url="<https://example.com/v>" %}')?.attributes).toEqual({
      url: 'https://example.com/v',
    });
  });

  it('is no tag when it is not alone on its line, unknown, unterminated or closing with attributes', () => {
    for (const line of [
      '{% hint style="info" %} text',
      'text {% hint style="info" %}',
      '{% include "a.md" %}',
      '{% hint style="info" ',
      '{% hint style="info %}',
      '{% endhint style="info" %}',
      '{% hint style= %}',
      '{ % hint %}',
    ])
      expect(parseTagLine(line)).toBeUndefined();
  });

  it('writes the known attributes in their order, escaping quotes and what a line cannot hold', () => {
    expect(tagLine('code', { lineNumbers: 'true', title: 'a "b" c\\', x: 'y' })).toBe(
      '{% code title="a \\"b\\" c\\\\" lineNumbers="true" %}',
    );
    expect(parseTagLine(tagLine('tab', { title: 'a \\" b\\\\' }))?.attributes.title).toBe('a \\" b\\\\');
    expect(tagLine('tab', { title: 'two\nlines' })).toBe('{% tab title="two lines" %}');
  });
});

describe('GitBook block tags ↔ document, by construct', () => {
  it('maps a hint to `hint` with its style, for each style', () => {
    for (const style of ['info', 'success', 'warning', 'danger']) {
      const markdown = `{% hint style="${style}" %}\nBe **careful**.\n{% endhint %}\n`;
      expect(nodesOf(markdown)).toEqual([
        {
          object: 'block',
          type: 'hint',
          data: { style },
          nodes: [paragraph(leaf('Be '), leaf('careful', ['bold']), leaf('.'))],
        },
      ]);
      expect(canonical(markdown)).toBe(markdown);
    }
    // GitBook's default style when none is given; a style GitBook does not have is no hint.
    expect(nodesOf('{% hint %}\na\n{% endhint %}')[0].data).toEqual({ style: 'info' });
    expect(nodesOf('{% hint style="note" %}\na\n{% endhint %}')[0].type).toBe('paragraph');
  });

  it('maps tabs to `tabs` of `tabs-item` with their titles', () => {
    const markdown = [
      '{% tabs %}',
      '{% tab title="JavaScript" %}',
      '```js',
      'run();',
      '```',
      '{% endtab %}',
      '',
      '{% tab title="Python" %}',
      'Run it.',
      '{% endtab %}',
      '{% endtabs %}',
      '',
    ].join('\n');
    const [tabs] = nodesOf(markdown);
    expect(tabs).toMatchObject({ object: 'block', type: 'tabs', data: {} });
    expect(tabs.nodes.map((item: { type: string; data: object }) => [item.type, item.data])).toEqual([
      ['tabs-item', { title: 'JavaScript' }],
      ['tabs-item', { title: 'Python' }],
    ]);
    expect(tabs.nodes[0].nodes[0]).toMatchObject({ type: 'code', data: { syntax: 'js' } });
    expect(canonical(markdown)).toBe(markdown);
  });

  it('maps an embed to `embed` with its URL, not autolinked, and its caption', () => {
    const url = 'https://www.youtube.com/watch?v=D_uLM5i0Z4c&t=1';
    expect(nodesOf(`{% embed url="${url}" %}`)).toEqual([
      { object: 'block', type: 'embed', isVoid: true, data: { url } },
    ]);
    expect(canonical(`{% embed url="${url}" %}`)).toBe(`{% embed url="${url}" %}\n`);
    expect(canonical(`{% embed url="<${url}>" %}`)).toBe(`{% embed url="${url}" %}\n`);
    const captioned = `{% embed url="${url}" %}\nThe talk\n{% endembed %}\n`;
    expect(nodesOf(captioned)).toEqual([
      { object: 'block', type: 'embed', isVoid: true, data: { url }, fragments: caption('The talk') },
    ]);
    expect(canonical(captioned)).toBe(captioned);
    // An empty body is no caption.
    expect(canonical(`{% embed url="${url}" %}\n{% endembed %}`)).toBe(`{% embed url="${url}" %}\n`);
  });

  it('maps a content-ref to `content-ref` with a URL ref, GitBook’s default body implied', () => {
    const markdown =
      '{% content-ref url="getting-started.md" %}\n[getting-started.md](getting-started.md)\n{% endcontent-ref %}\n';
    expect(nodesOf(markdown)).toEqual([
      {
        object: 'block',
        type: 'content-ref',
        isVoid: true,
        data: { ref: { kind: 'url', url: 'getting-started.md' } },
      },
    ]);
    expect(canonical(markdown)).toBe(markdown);
    expect(canonical('{% content-ref url="getting-started.md" %}')).toBe(markdown);
    const titled = '{% content-ref url="start.md" %}\n[Getting started](start.md)\n{% endcontent-ref %}\n';
    expect(nodesOf(titled)[0].fragments[0].nodes[0].nodes[1]).toMatchObject({
      type: 'link',
      data: { ref: { kind: 'url', url: 'start.md' } },
    });
    expect(canonical(titled)).toBe(titled);
  });

  it('maps a code tag and its fence to one `code` block with the options', () => {
    const markdown = [
      '{% code title="index.js" overflow="wrap" lineNumbers="true" %}',
      '```js',
      'const a = 1;',
      '```',
      '{% endcode %}',
      '',
    ].join('\n');
    expect(nodesOf(markdown)).toEqual([
      {
        object: 'block',
        type: 'code',
        data: { syntax: 'js', title: 'index.js', overflow: 'wrap', lineNumbers: true },
        nodes: [
          {
            object: 'block',
            type: 'code-line',
            data: {},
            nodes: [{ object: 'text', leaves: [leaf('const a = 1;')] }],
          },
        ],
      },
    ]);
    expect(canonical(markdown)).toBe(markdown);
    // Options in any order, written in one.
    expect(
      canonical(
        '{% code lineNumbers="false" fullWidth="true" expandable="true" title="a" %}\n```\nx\n```\n{% endcode %}',
      ),
    ).toBe(
      '{% code title="a" lineNumbers="false" fullWidth="true" expandable="true" %}\n```\nx\n```\n{% endcode %}\n',
    );
    // A code block without options is a plain fence.
    expect(documentToMarkdown(read('```js\nx\n```'))).toBe('```js\nx\n```\n');
  });

  it('maps a file to `file` with its path kept as a URL ref and its caption', () => {
    const markdown = '{% file src=".gitbook/assets/report.pdf" %}\nThe report\n{% endfile %}\n';
    expect(nodesOf(markdown)).toEqual([
      {
        object: 'block',
        type: 'file',
        isVoid: true,
        data: { ref: { kind: 'url', url: '.gitbook/assets/report.pdf' } },
        fragments: caption('The report'),
      },
    ]);
    expect(canonical(markdown)).toBe(markdown);
    expect(canonical('{% file src="a.pdf" %}')).toBe('{% file src="a.pdf" %}\n');
    // GitBook's file refs name stored files: in its form, a file named by a path is a link to it.
    const [link] = withoutKeys(gitbookDocument(read(markdown)).nodes);
    expect(link).toMatchObject({
      type: 'paragraph',
      nodes: [{}, { type: 'link', data: { ref: { url: '.gitbook/assets/report.pdf' } } }, {}],
    });
    expect(link.nodes[1].nodes[0].leaves[0].text).toBe('The report');
  });

  it('maps openapi (and swagger) to GitBook’s `swagger` block, openapi-operation to `openapi-operation`', () => {
    const src = 'https://petstore3.swagger.io/api/v3/openapi.json';
    const markdown = `{% openapi src="${src}" path="/pet" method="post" %}\n<${src}>\n{% endopenapi %}\n`;
    expect(nodesOf(markdown)).toEqual([
      {
        object: 'block',
        type: 'swagger',
        isVoid: true,
        data: { ref: { kind: 'url', url: src }, path: '/pet', method: 'post' },
      },
    ]);
    expect(canonical(markdown)).toBe(markdown);
    expect(
      canonical(`{% swagger src="${src}" path="/pet" method="post" %}\n[${src}](${src})\n{% endswagger %}`),
    ).toBe(markdown);
    expect(nodesOf('{% swagger method="get" path="/x" %}\ntext\n{% endswagger %}')[0].type).toBe('paragraph');
    const operation = '{% openapi-operation spec="petstore" path="/pet" method="get" %}\n';
    expect(nodesOf(operation)).toEqual([
      {
        object: 'block',
        type: 'openapi-operation',
        isVoid: true,
        data: { ref: { kind: 'openapi', spec: 'petstore' }, path: '/pet', method: 'get' },
      },
    ]);
    expect(canonical(operation)).toBe(operation);
  });

  it('maps a stepper to `stepper` of `stepper-step`, columns to `columns` of `column`', () => {
    const stepper =
      '{% stepper %}\n{% step %}\n### Install\n\nRun it.\n{% endstep %}\n\n{% step %}\nUse it.\n{% endstep %}\n{% endstepper %}\n';
    const [s] = nodesOf(stepper);
    expect([s.type, s.data, s.nodes.map((n: { type: string }) => n.type)]).toEqual([
      'stepper',
      {},
      ['stepper-step', 'stepper-step'],
    ]);
    expect(s.nodes[0].nodes.map((n: { type: string }) => n.type)).toEqual(['heading-3', 'paragraph']);
    expect(canonical(stepper)).toBe(stepper);
    const columns =
      '{% columns %}\n{% column %}\nLeft\n{% endcolumn %}\n\n{% column %}\nRight\n{% endcolumn %}\n{% endcolumns %}\n';
    const [c] = nodesOf(columns);
    expect([c.type, c.isVoid, c.nodes.map((n: { type: string; data: object }) => [n.type, n.data])]).toEqual([
      'columns',
      false,
      [
        ['column', {}],
        ['column', {}],
      ],
    ]);
    expect(canonical(columns)).toBe(columns);
  });

  it('nests: a hint in a tab, code in a step, tabs in a hint, lists and tables in a hint', () => {
    const markdown = [
      '{% tabs %}',
      '{% tab title="A" %}',
      '{% hint style="success" %}',
      'In a tab.',
      '{% endhint %}',
      '{% endtab %}',
      '{% endtabs %}',
      '',
      '{% stepper %}',
      '{% step %}',
      '{% code title="a.sh" %}',
      '```sh',
      'make',
      '```',
      '{% endcode %}',
      '{% endstep %}',
      '{% endstepper %}',
      '',
      '{% hint style="info" %}',
      '{% tabs %}',
      '{% tab title="In" %}',
      'a hint',
      '{% endtab %}',
      '{% endtabs %}',
      '',
      '* one',
      '* two',
      '',
      '| a |',
      '| - |',
      '| b |',
      '',
      '{% endhint %}',
      '',
    ].join('\n');
    const [tabs, stepper, hint] = nodesOf(markdown);
    expect(tabs.nodes[0].nodes[0]).toMatchObject({ type: 'hint', data: { style: 'success' } });
    expect(stepper.nodes[0].nodes[0]).toMatchObject({ type: 'code', data: { syntax: 'sh', title: 'a.sh' } });
    expect(hint.nodes.map((n: { type: string }) => n.type)).toEqual(['tabs', 'list-unordered', 'table']);
    expect(canonical(markdown)).toBe(markdown);
    // GitBook allows no tabs in a hint: its form splits the hint around them.
    expect(gitbookDocument(read(markdown)).nodes.map((n) => n.type)).toEqual([
      'tabs',
      'stepper',
      'tabs',
      'hint',
    ]);
  });

  it('reads GitBook’s compact form: a list or a quote right before the close tag', () => {
    const list = nodesOf('{% hint style="info" %}\n* a\n* b\n{% endhint %}\nafter');
    expect(list.map((n: { type: string }) => n.type)).toEqual(['hint', 'paragraph']);
    expect(list[0].nodes.map((n: { type: string }) => n.type)).toEqual(['list-unordered']);
    const quote = nodesOf('{% tab title="a" %}\n> q\n{% endtab %}');
    expect(quote.map((n: { type: string }) => n.type)).toEqual(['paragraph', 'blockquote', 'paragraph']);
  });

  it('keeps tags in quotes and list items, paired among their siblings', () => {
    const markdown =
      '> {% hint style="info" %}\n> quoted\n> {% endhint %}\n\n* {% embed url="https://e.com" %}\n';
    const [quote, list] = nodesOf(markdown);
    expect(quote.nodes[0]).toMatchObject({ type: 'hint' });
    expect(list.nodes[0].nodes[0]).toMatchObject({ type: 'embed', data: { url: 'https://e.com' } });
    expect(canonical(markdown)).toBe(markdown);
  });
});

describe('GitBook block tags that are not blocks stay text', () => {
  it('an unpaired tag is text, one paragraph with the lines around it, escaped when written', () => {
    expect(nodesOf('Before\n{% endhint %}\nafter')).toEqual([
      paragraph(leaf('Before'), softBreak, leaf('{% endhint %}'), softBreak, leaf('after')),
    ]);
    expect(canonical('Before\n{% endhint %}\nafter')).toBe('Before\n\\{% endhint %}\nafter\n');
    expect(canonical('{% hint style="info" %}\nNever closed.')).toBe(
      '\\{% hint style="info" %}\nNever closed.\n',
    );
    expect(canonical('{% endtabs %}')).toBe('\\{% endtabs %}\n');
  });

  it('a block not where its tag may be, or without the body its tag takes, gives back its tags as text', () => {
    // A tab outside tabs.
    expect(nodesOf('{% tab title="a" %}\nx\n{% endtab %}').map((n: { type: string }) => n.type)).toEqual([
      'paragraph',
    ]);
    // Tabs holding something else than tabs.
    const stray = nodesOf('{% tabs %}\nstray\n\n{% tab title="a" %}\nx\n{% endtab %}\n{% endtabs %}');
    expect(stray.map((n: { type: string }) => n.type)).toEqual(['paragraph', 'paragraph']);
    expect(stray[0].nodes[0].leaves.map((l: { text: string }) => l.text).join('')).toBe('{% tabs %}\nstray');
    // A code tag without its fence.
    expect(
      nodesOf('{% code title="a" %}\nnot code\n{% endcode %}').map((n: { type: string }) => n.type),
    ).toEqual(['paragraph']);
    // An embed with more than a caption: the embed, then the blocks, then the close tag as text.
    expect(
      nodesOf('{% embed url="https://e.com" %}\n# Title\n\ntext\n{% endembed %}').map(
        (n: { type: string }) => n.type,
      ),
    ).toEqual(['embed', 'heading-1', 'paragraph']);
    // Crossed tags: the inner open tag is unpaired.
    const crossed = '{% hint style="info" %}\n{% tabs %}\nx\n{% endhint %}\n{% endtabs %}';
    expect(nodesOf(crossed).map((n: { type: string }) => n.type)).toEqual(['hint', 'paragraph']);
    for (const markdown of [
      crossed,
      '{% tabs %}\nstray\n\n{% tab title="a" %}\nx\n{% endtab %}\n{% endtabs %}',
    ])
      canonical(markdown);
  });

  it('leaves tags it does not know, and tags not alone on their line, as they are', () => {
    const markdown =
      '{% include "reuse.md" %}\n\n{% if visitor.claims %}\nx\n{% endif %}\n\nA {% hint style="info" %} inline\n';
    expect(canonical(markdown)).toBe(markdown);
    expect(canonical('`{% hint %}` and\n\n```\n{% endhint %}\n```')).toBe(
      '`{% hint %}` and\n\n```\n{% endhint %}\n```\n',
    );
  });
});

describe('GitBook block tags: keys and documents GitBook made', () => {
  it('editing one tab changes the keys of that tab and its ancestors only', () => {
    const tabs = (second: string) =>
      `# T\n\n{% tabs %}\n{% tab title="A" %}\nSame.\n{% endtab %}\n\n{% tab title="B" %}\n${second}\n{% endtab %}\n{% endtabs %}\n\nEnd.`;
    const before = read(tabs('Old.'));
    const after = read(tabs('New.'));
    const changed = keysOf(after.nodes).filter((key) => !keysOf(before.nodes).includes(key));
    const block = after.nodes[1] as DocumentNode & { nodes: (DocumentNode & { nodes: DocumentNode[] })[] };
    const paragraphKeys = keysOf(block.nodes[1].nodes);
    expect(new Set(changed)).toEqual(new Set([block.key, block.nodes[1].key, ...paragraphKeys]));
    expect(keysOf(after.nodes).length).toBe(new Set(keysOf(after.nodes)).size);
  });

  it('writes blocks GitBook made (no Markdown extras) in its dialect', () => {
    const document = {
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'hint',
          data: { style: 'danger' },
          nodes: [
            {
              object: 'block',
              type: 'paragraph',
              data: {},
              nodes: [{ object: 'text', leaves: [leaf('Stop')] }],
            },
          ],
        },
        {
          object: 'block',
          type: 'tabs',
          nodes: [
            {
              object: 'block',
              type: 'tabs-item',
              data: { title: 'Only' },
              nodes: [
                {
                  object: 'block',
                  type: 'paragraph',
                  data: {},
                  nodes: [{ object: 'text', leaves: [leaf('x')] }],
                },
              ],
            },
          ],
        },
        { object: 'block', type: 'content-ref', isVoid: true, data: { ref: { kind: 'page', page: 'p1' } } },
        { object: 'block', type: 'file', isVoid: true, data: { ref: { kind: 'file', file: 'f1' } } },
        { object: 'block', type: 'embed', isVoid: true, data: { url: 'https://e.com/v?a=1' } },
      ],
    } as unknown as Document;
    expect(documentToMarkdown(document)).toBe(
      [
        '{% hint style="danger" %}\nStop\n{% endhint %}',
        '{% tabs %}\n{% tab title="Only" %}\nx\n{% endtab %}\n{% endtabs %}',
        '{% content-ref url="/pages/p1" %}\n[/pages/p1](/pages/p1)\n{% endcontent-ref %}',
        '{% file src="/files/f1" %}',
        '{% embed url="https://e.com/v?a=1" %}\n',
      ].join('\n\n'),
    );
    expect(schemaProblem('JSONDocument', gitbookDocument(document))).toBeUndefined();
  });
});

describe("GitBook block tags in GitBook's form (gitbookDocument)", () => {
  it('follows GitBook’s nesting rules, strictly valid, every block kept or given its content', () => {
    const markdown = [
      '{% hint style="info" %}\nText\n\n```js\nx\n```\n\n> quote\n\n![i](i.png)\n{% endhint %}',
      '{% tabs %}\n{% tab title="T" %}\n| a |\n| - |\n| cell |\n\n{% columns %}\n{% column %}\nin column\n{% endcolumn %}\n{% endcolumns %}\n{% endtab %}\n{% endtabs %}',
      '* item\n  {% embed url="https://e.com/v" %}\n  {% tabs %}\n  {% tab title="L" %}\n  in list\n  {% endtab %}\n  {% endtabs %}',
      '{% columns %}\n{% column %}\n{% tabs %}\n{% tab title="C" %}\nin tab in column\n{% endtab %}\n{% endtabs %}\n{% endcolumn %}\n{% endcolumns %}',
      '{% stepper %}\n{% step %}\n| s |\n| - |\n| t |\n\n{% file src="a.pdf" %}\nA\n{% endfile %}\n{% endstep %}\n{% endstepper %}',
      '{% content-ref url="a.md" %}\n[A page](a.md)\n{% endcontent-ref %}',
      'Note[^1]\n\n[^1]: {% hint style="danger" %}\n    in a footnote\n    {% endhint %}',
    ].join('\n\n');
    canonical(markdown);
    const document = read(markdown);
    const view = gitbookDocument(document);
    expect(schemaProblem('JSONDocument', document)).toMatch(/does not match/);
    expect(schemaProblem('JSONDocument', view)).toBeUndefined();
    expect(gitbookDocument(view)).toEqual(view);
    // The hint splits around the code and the quote; the image is inline, which a hint may hold.
    expect(view.nodes.slice(0, 5).map((n) => n.type)).toEqual(['hint', 'code', 'blockquote', 'hint', 'tabs']);
    const texts = JSON.stringify(view);
    for (const kept of [
      'cell',
      'in column',
      'in list',
      'in tab in column',
      'https://e.com/v',
      'a.pdf',
      'in a footnote',
    ])
      expect(texts).toContain(kept);
    // Keys stay unique.
    const keys: string[] = [];
    JSON.stringify(view, (k, v) => {
      if (k === 'key') keys.push(v);
      return v;
    });
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('GitBook block tags: hostile input', () => {
  it('reads a flood of tags about as fast as as many lines of text', () => {
    const n = 5000;
    const time = (markdown: string) => {
      const started = Date.now();
      read(markdown);
      return Date.now() - started;
    };
    // Each flood beside the same Markdown with its tag lines made words.
    for (const [tags, lines] of [
      ['{% tabs %}\n'.repeat(n) + '{% endhint %}\n'.repeat(n), 'tabs\n'.repeat(2 * n)],
      ['{% endhint %}\n[a](b) x\n'.repeat(n), 'endhint\n[a](b) x\n'.repeat(n)],
      ['{% hint style="info" %}\nx\n{% endhint %}\n\n'.repeat(n), 'hint\nx\nendhint\n\n'.repeat(n)],
      ['{% tabs %}\n{% tab title="a" %}\nx\n{% endtab %}\n'.repeat(n), 'tabs\ntab\nx\nendtab\n'.repeat(n)],
    ]) {
      const plain = time(lines);
      expect(time(tags)).toBeLessThan(3 * plain + 1000);
    }
    // Deep nesting is refused before it is read.
    expect(markdownProblem('{% hint style="info" %}\n'.repeat(n), DEFAULT_MARKDOWN_LIMITS)).toMatch(
      /nests 33/,
    );
  }, 60_000);

  it('counts nested tags towards the nesting limit, embeds and unpaired closes not', () => {
    const limit = DEFAULT_MARKDOWN_LIMITS.maxNesting;
    const nested = (depth: number) =>
      `${'{% hint style="info" %}\n'.repeat(depth)}x\n${'{% endhint %}\n'.repeat(depth)}`;
    expect(markdownProblem(nested(limit), DEFAULT_MARKDOWN_LIMITS)).toBeUndefined();
    expect(markdownProblem(nested(limit + 1), DEFAULT_MARKDOWN_LIMITS)).toMatch(
      /nests 33 block quotes, lists or block tags/,
    );
    expect(
      markdownProblem(`${'> '.repeat(20)}\n${'{% tabs %}\n'.repeat(13)}`, DEFAULT_MARKDOWN_LIMITS),
    ).toBeUndefined();
    expect(markdownProblem(`${'> '.repeat(20)}{% tabs %}\n`.repeat(13), DEFAULT_MARKDOWN_LIMITS)).toMatch(
      /nests 33/,
    );
    expect(
      markdownProblem('{% embed url="https://e.com" %}\n'.repeat(1000), DEFAULT_MARKDOWN_LIMITS),
    ).toBeUndefined();
    expect(
      markdownProblem(
        `${'{% endhint %}\n'.repeat(1000)}{% hint %}\nx\n{% endhint %}\n`,
        DEFAULT_MARKDOWN_LIMITS,
      ),
    ).toBeUndefined();
    expect(
      markdownProblem(`\`\`\`\n${'{% hint %}\n'.repeat(100)}\`\`\`\n`, DEFAULT_MARKDOWN_LIMITS),
    ).toBeUndefined();
  });
});
