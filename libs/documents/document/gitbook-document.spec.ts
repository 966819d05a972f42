import { schemaProblem } from '../../../test/support/openapi';
import { leaf, withoutKeys } from './document.testing';
import { markdownToDocument } from './from-markdown';
import { gitbookDocument } from './gitbook-document';

/** GitBook's form of the document Markdown reads as, without keys. */
const view = (markdown: string) => withoutKeys(gitbookDocument(markdownToDocument(markdown).document).nodes);

describe('gitbookDocument', () => {
  it("is valid under GitBook's schema, strictly, for a document with every construct", () => {
    const { document } = markdownToDocument(
      [
        '# Title *em*',
        '## Two',
        '#### Four',
        'Text **b** *i* ~~s~~ `c` <b>html</b> [link *x*](https://x.y "T") ![img](i.png "C") a\\\nb\nc[^1]',
        '![Alone](a.png "Caption")',
        '* a\n* b\n  1. c\n  2. d\n     - [x] e\n     - [ ] f',
        '> quote\n>\n> ```js\n> code\n> ```\n>\n> | t |\n> | - |\n> | 1 |\n>\n> <div>x</div>\n>\n> after',
        '```ts title="x"\nconst a = 1;\n```',
        '<section>\nraw\n</section>',
        '---',
        '| A | *B* |\n| :-: | --: |\n| 1 | [2](u) |\n| 3 |',
        '[^1]: Note with a quote:\n\n    > quoted\n\n    | t |\n    | - |\n    | cell |',
      ].join('\n\n'),
    );
    expect(schemaProblem('JSONDocument', document)).toMatch(/does not match/);
    expect(schemaProblem('JSONDocument', gitbookDocument(document))).toBeUndefined();
  });

  it('writes soft breaks as spaces and inline HTML as text, merging the leaves', () => {
    expect(view('a\nb <b>c</b> *d*')).toEqual([
      {
        object: 'block',
        type: 'paragraph',
        data: {},
        nodes: [{ object: 'text', leaves: [leaf('a b <b>c</b> '), leaf('d', ['italic'])] }],
      },
    ]);
  });

  it("drops the code block's and the link's Markdown extras", () => {
    const [code, paragraph] = view('```js title="a"\nx\n```\n\n[a](u "T")');
    expect(code.data).toEqual({ syntax: 'js' });
    expect(paragraph.nodes[1].data).toEqual({ ref: { kind: 'url', url: 'u' } });
  });

  it('splits a quote around the blocks GitBook does not allow in it, keeping keys unique', () => {
    const { document } = markdownToDocument('> a\n>\n> ```\n> x\n> ```\n>\n> b');
    const nodes = gitbookDocument(document).nodes;
    expect(nodes.map((n) => n.type)).toEqual(['blockquote', 'code', 'blockquote']);
    expect(nodes[0].key).toBe(document.nodes[0].key);
    expect(new Set(nodes.map((n) => n.key)).size).toBe(3);
  });

  it("gives a footnote body's quotes their blocks and its tables their cells", () => {
    const [paragraph] = view('A[^1]\n\n[^1]: > q\n\n    | t |\n    | - |\n    | c |');
    expect(
      paragraph.nodes[1].fragments[0].nodes.map(
        (n: { nodes: { leaves: { text: string }[] }[] }) => n.nodes[0].leaves[0].text,
      ),
    ).toEqual(['q', 'c']);
  });

  it('changes nothing in a document GitBook could have made', () => {
    const plain = gitbookDocument(markdownToDocument('# T\n\n* a *b*\n\n| x |\n| - |\n| 1 |').document);
    expect(gitbookDocument(plain)).toEqual(plain);
    expect(gitbookDocument(markdownToDocument('# T\n\n* a *b*').document)).toEqual(
      markdownToDocument('# T\n\n* a *b*').document,
    );
  });
});
