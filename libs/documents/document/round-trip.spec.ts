/**
 * The two round trips, on random Markdown documents from a grammar of what the conversion keeps whole:
 * headings 1-3, paragraphs with nested marks, inline code, links (marks inside and around), images,
 * inline HTML, hard and soft breaks, footnotes, nested bullet, ordered and task lists, quotes, fenced
 * code with languages, raw HTML blocks, tables, dividers, YAML frontmatter, and GitBook's dialect: its
 * block tags (hints, tabs, embeds, content-refs, code options, files, OpenAPI blocks, steppers, columns,
 * nested in each other and in quotes and lists; icons, widths, `valign`, `fullWidth`), math blocks and
 * inline math, `<details>`, `<figure>` (an image's width and height),
 * color `<mark>`s, buttons and loose lists, each in the others' containers. What the conversion
 * normalizes on purpose (README.md, "What is not lossless") is left out of the grammar and tested by
 * example in conversion.spec.ts.
 */
import fc from 'fast-check';
import type {
  BlockContent,
  Code,
  FootnoteDefinition,
  Heading,
  ListItem,
  Nodes,
  Paragraph,
  PhrasingContent,
  Root,
  RootContent,
  TableCell,
  TableRow,
} from 'mdast';
import { stringify } from 'yaml';
import { schemaProblem } from '../../../test/support/openapi';
import type { LiquidBlock } from './dialect/liquid-tags';
import { markdownToDocument } from './from-markdown';
import { gitbookDocument } from './gitbook-document';
import { normalizeMarkdown, serializeMarkdown } from './markdown-syntax';
import { documentToMarkdown } from './to-markdown';

type Mark = 'emphasis' | 'strong' | 'delete';
interface Context {
  open: readonly Mark[];
  inLink: boolean;
  /** Paragraphs may break lines; headings and table cells may not. */
  multiline: boolean;
  footnotes: boolean;
}

// Words with Markdown syntax in them (escaped when written), and literal autolinks (GFM reads them as links).
const WORDS = [
  'alpha',
  'Gamma',
  'x1',
  '42',
  'a*b',
  'snake_case',
  '1.',
  '#tag',
  '[x]',
  'a|b',
  'R&D',
  '~',
  '`q`',
  'é',
];
const AUTOLINKS = ['https://example.com/x', 'www.example.com', 'me@example.com'];
const word = fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...WORDS) }, fc.constantFrom(...AUTOLINKS));
const words = fc.array(word, { minLength: 1, maxLength: 3 }).map((ws) => ws.join(' '));
const URLS = ['https://example.com/a?b=c', '/docs/page', '#anchor', 'page.md', 'https://example.com/a b'];
const url = fc.constantFrom(...URLS);
const title = fc.option(words, { nil: null });
const LABELS = ['1', '2', 'note'];

const text = (value: string): PhrasingContent => ({ type: 'text', value });

/**
 * Inline HTML written whole keeps its text unescaped: the `*` of a `<mark>…a*b</mark>` is an emphasis
 * delimiter. Two of them in one inline content may pair around an emphasis the grammar put there,
 * giving an emphasis in an emphasis, which is one mark in GitBook (README.md, "What is not lossless"):
 * one such `*` per inline content.
 */
const STRAY_STAR = /^<mark[^>]*>[^<]*\*/;
const strayStars = (nodes: readonly PhrasingContent[]): number =>
  nodes.reduce(
    (n, node) =>
      n +
      (node.type === 'html' && STRAY_STAR.test(node.value) ? 1 : 0) +
      ('children' in node ? strayStars(node.children as PhrasingContent[]) : 0),
    0,
  );

/** Content between items: text around them, so that no two marks or links touch. */
function sequence(ctx: Context, depth: number): fc.Arbitrary<PhrasingContent[]> {
  return fc
    .tuple(
      words,
      fc.array(fc.tuple(inlineItem(ctx, depth), separator(ctx)), { maxLength: depth > 0 ? 3 : 0 }),
    )
    .map(([first, rest]) => {
      if (rest.length === 0) return [text(first)];
      const out: PhrasingContent[] = [text(`${first} `)];
      rest.forEach(([item, sep], i) => {
        const last = i === rest.length - 1;
        out.push(item, ...sep(last));
      });
      return out;
    })
    .filter((nodes) => strayStars(nodes) <= 1);
}

/** Text after an item: a space, words, maybe a hard or soft line break inside it. */
function separator(ctx: Context): fc.Arbitrary<(last: boolean) => PhrasingContent[]> {
  const kinds = ctx.multiline ? (['plain', 'soft', 'hard'] as const) : (['plain'] as const);
  return fc.tuple(words, words, fc.constantFrom(...kinds)).map(([a, b, kind]) => (last: boolean) => {
    const end = last ? '' : ' ';
    if (kind === 'soft') return [text(` ${a}\n${b}${end}`)];
    if (kind === 'hard') return [text(` ${a}`), { type: 'break' }, text(`${b}${end}`)];
    return [text(` ${a}${end}`)];
  });
}

function inlineItem(ctx: Context, depth: number): fc.Arbitrary<PhrasingContent> {
  const items: fc.Arbitrary<PhrasingContent>[] = [
    words.map((value): PhrasingContent => ({ type: 'inlineCode', value })),
    fc
      .constantFrom('<b>', '</b>', '<span class="x">', '<!-- c -->', '<br/>', '<mark>')
      .map((value): PhrasingContent => ({ type: 'html', value })),
    // GitBook's dialect: inline math, and color marks and buttons (written whole as inline HTML, which
    // the Markdown reads back as tags around text).
    fc.constantFrom(...TEX).map((value): PhrasingContent => ({ type: 'inlineMath', value })),
    fc
      .constantFrom(
        '<mark style="color:red;">red</mark>',
        '<mark style="background-color:$primary;">a*b</mark>',
        ...(ctx.inLink ? [] : ['<a href="/x?a=1&amp;b" class="button primary">Go</a>']),
      )
      .map((value): PhrasingContent => ({ type: 'html', value })),
  ];
  for (const m of ['emphasis', 'strong', 'delete'] as const) {
    if (ctx.open.includes(m) || depth === 0) continue;
    items.push(markNode(m, ctx, depth));
  }
  if (!ctx.inLink && depth > 0) {
    const inner = { ...ctx, inLink: true, multiline: false, footnotes: false };
    const free = ['emphasis', 'strong', 'delete'].filter((m) => !ctx.open.includes(m as Mark)) as Mark[];
    const content = fc.oneof(
      sequence(inner, depth - 1),
      // A link whose text is all in one mark: the mark stays inside the link.
      ...(free.length > 0
        ? [fc.constantFrom(...free).chain((m) => markNode(m, inner, depth - 1).map((node) => [node]))]
        : []),
      // An image in a link (no mark around it: GitBook images carry no marks).
      ...(ctx.open.length === 0 ? [image.map((node) => [node])] : []),
    );
    items.push(
      fc
        .tuple(content, url, title)
        .map(([children, href, t]): PhrasingContent => ({ type: 'link', url: href, title: t, children })),
    );
  }
  if (ctx.open.length === 0 && !ctx.inLink) items.push(image);
  if (ctx.footnotes) {
    items.push(
      fc
        .constantFrom(...LABELS)
        .map((label): PhrasingContent => ({ type: 'footnoteReference', identifier: label, label })),
    );
  }
  return fc.oneof(...items);
}

const image: fc.Arbitrary<PhrasingContent> = fc
  .tuple(fc.option(words, { nil: '' }), url, title)
  .map(([alt, href, t]) => ({ type: 'image', alt, url: href, title: t }));

function markNode(m: Mark, ctx: Context, depth: number): fc.Arbitrary<PhrasingContent> {
  return (
    sequence({ ...ctx, open: [...ctx.open, m] }, depth - 1)
      // Not a mark over nothing but an autolink: a mark over exactly one link moves into it.
      .filter(
        ([first, ...rest]) => rest.length > 0 || first.type !== 'text' || !AUTOLINKS.includes(first.value),
      )
      .map((children) => ({ type: m, children }) as PhrasingContent)
  );
}

const TEX = ['x^2', 'a_1 * b_2', '\\sqrt[3]{x} \\[y\\] \\\\ z'];

const paragraphContext: Context = { open: [], inLink: false, multiline: true, footnotes: true };
const lineContext: Context = { ...paragraphContext, multiline: false };

/** `top`: directly in the document, where lists may be loose (see list()). */
function block(depth: number, footnotes: boolean, top = false): fc.Arbitrary<BlockContent> {
  const para = { ...paragraphContext, footnotes };
  const line = { ...lineContext, footnotes };
  const leaves: fc.Arbitrary<BlockContent>[] = [
    sequence(para, 2).map((children): BlockContent => ({ type: 'paragraph', children })),
    fc
      .tuple(fc.constantFrom(1, 2, 3), sequence(line, 2))
      .map(([d, children]): BlockContent => ({ type: 'heading', depth: d as Heading['depth'], children })),
    fc.constant<BlockContent>({ type: 'thematicBreak' }),
    code,
    fc
      .constantFrom('<div>\nhi\n</div>', '<!-- comment -->', '<section class="x">\n<p>a</p>\n</section>')
      .map((value): BlockContent => ({ type: 'html', value })),
    table(footnotes),
    image.map((img): BlockContent => ({ type: 'paragraph', children: [img] })),
    liquidLeaf(footnotes),
    fc.constantFrom(...TEX).map((value): BlockContent => ({ type: 'math', value, meta: null })),
    fc
      .constantFrom(
        '<figure><img src="a.png?x=1&amp;y=2" alt="A"><figcaption><p>Cap <em>x</em></p></figcaption></figure>',
        '<figure><img src="b.png" alt=""><figcaption></figcaption></figure>',
        '<figure><img src="c.png" alt="C" width="375" height="33.5%"><figcaption></figcaption></figure>',
      )
      .map((value): BlockContent => ({ type: 'html', value })),
    // An expandable, written whole as HTML around Markdown (read back as its tags and blocks).
    fc.tuple(fc.constantFrom('', ' open'), fc.constantFrom('Title', 'More <strong>b</strong>'), words).map(
      ([open, summary, body]): BlockContent => ({
        type: 'html',
        value: `<details${open}>\n\n<summary>${summary}</summary>\n\n${body}\n\n</details>`,
      }),
    ),
  ];
  if (depth === 0) return fc.oneof(...leaves);
  const children = fc.array(block(depth - 1, footnotes), { minLength: 1, maxLength: 3 });
  return fc.oneof(
    { weight: 4, arbitrary: fc.oneof(...leaves) },
    { weight: 1, arbitrary: liquidContainer(depth, footnotes) },
    {
      weight: 1,
      arbitrary: children
        .filter(noListBeforeContainer)
        .map((c): BlockContent => ({ type: 'blockquote', children: c })),
    },
    { weight: 2, arbitrary: list(depth, footnotes, top) },
  );
}

const liquid = (
  name: LiquidBlock['name'],
  attributes: LiquidBlock['attributes'],
  children: LiquidBlock['children'] = [],
): BlockContent => ({ type: 'liquidBlock', name, attributes, children });

/** GitBook's tags that hold no blocks: embeds, references, files and OpenAPI blocks (a caption maybe), code. */
function liquidLeaf(footnotes: boolean): fc.Arbitrary<BlockContent> {
  const caption = fc.option(
    sequence({ ...paragraphContext, footnotes }, 1).map((children): Paragraph[] => [
      { type: 'paragraph', children },
    ]),
    { nil: [] as Paragraph[] },
  );
  const options = fc.record(
    {
      title: words,
      overflow: fc.constantFrom('scroll', 'wrap'),
      lineNumbers: fc.constantFrom('true', 'false'),
      fullWidth: fc.constantFrom('true', 'false'),
      expandable: fc.constantFrom('true', 'false'),
    },
    { requiredKeys: [] },
  );
  return fc.oneof(
    fc
      .tuple(
        url,
        fc.constantFrom<LiquidBlock['attributes']>({}, { fullWidth: 'true' }, { fullWidth: 'false' }),
        caption,
      )
      .map(([u, wide, c]) => liquid('embed', { url: u, ...wide }, c)),
    fc.tuple(url, caption).map(([u, c]) => liquid('content-ref', { url: u }, c)),
    fc.tuple(url, caption).map(([u, c]) => liquid('file', { src: u }, c)),
    fc
      .tuple(url, fc.constantFrom('/pet', '/a/{id}'), fc.constantFrom('get', 'post'), caption)
      .map(([u, path, method, c]) => liquid('openapi', { src: u, path, method }, c)),
    fc
      .tuple(fc.constantFrom('true', 'false'), fc.constantFrom('true', 'false'))
      .map(([expanded, fullWidth]) =>
        liquid('openapi', { src: 'api.yaml', path: '/x', method: 'get', expanded, fullWidth }),
      ),
    fc
      .tuple(fc.constantFrom('petstore', 'my api'), fc.constantFrom('get', 'delete'), caption)
      .map(([spec, method, c]) => liquid('openapi-operation', { spec, path: '/x', method }, c)),
    fc
      .tuple(options, code)
      .filter(([o]) => Object.keys(o).length > 0)
      .map(([o, c]) => liquid('code', o as LiquidBlock['attributes'], [c as Code])),
  );
}

/** GitBook's tags that hold blocks: hints, and tabs, steppers and columns of items. */
function liquidContainer(depth: number, footnotes: boolean): fc.Arbitrary<BlockContent> {
  const body = fc
    .array(block(depth - 1, footnotes), { minLength: 0, maxLength: 3 })
    .filter(noListBeforeContainer) as fc.Arbitrary<LiquidBlock['children']>;
  // Each item's attributes, in the order the writer writes them.
  const items = (name: 'tab' | 'step' | 'column', attributes: fc.Arbitrary<LiquidBlock['attributes']>) =>
    fc.array(
      fc.tuple(attributes, body).map(([a, children]) => liquid(name, a, children) as LiquidBlock),
      { maxLength: 3 },
    );
  const icon = fc.constantFrom('gear', 'book-open');
  const wide = fc.constantFrom<LiquidBlock['attributes']>({}, { fullWidth: 'true' }, { fullWidth: 'false' });
  const tab = fc.record({ title: words, icon }, { requiredKeys: [] });
  const column = fc.record(
    {
      width: fc.constantFrom('50%', '33.333333333333336%', '240'),
      valign: fc.constantFrom('top', 'middle', 'bottom'),
    },
    { requiredKeys: [] },
  );
  return fc.oneof(
    fc
      .tuple(
        fc.constantFrom('info', 'success', 'warning', 'danger'),
        fc.option(icon, { nil: undefined }),
        body,
      )
      .map(([style, i, children]) =>
        liquid('hint', i === undefined ? { style } : { style, icon: i }, children),
      ),
    fc.tuple(items('tab', tab), wide).map(([tabs, w]) => liquid('tabs', w, tabs)),
    items('step', fc.constant({})).map((steps) => liquid('stepper', {}, steps)),
    fc.tuple(items('column', column), wide).map(([columns, w]) => liquid('columns', w, columns)),
  );
}

/**
 * In containers, no list right before a list or a quote: inside a quote or a footnote,
 * mdast-util-from-markdown reads such a list (or its last item) as loose, a quirk of its blank-line
 * inference, so that the canonical form itself would loosen the list. The top level, where it reads
 * them right, keeps them.
 */
const endsWithList = (node: BlockContent | ListItem): boolean =>
  node.type === 'list' ||
  ((node.type === 'listItem' || node.type === 'blockquote') &&
    node.children.length > 0 &&
    endsWithList(node.children[node.children.length - 1] as BlockContent));
const noListBeforeContainer = (blocks: readonly BlockContent[]) =>
  !blocks.some(
    (node, i) =>
      endsWithList(node) && (blocks[i + 1]?.type === 'list' || blocks[i + 1]?.type === 'blockquote'),
  );

const code: fc.Arbitrary<BlockContent> = fc
  .tuple(
    fc.option(fc.constantFrom('js', 'ts', 'python', 'c++'), { nil: null }),
    fc.option(fc.constantFrom('title="a.js"', 'lines'), { nil: null }),
    fc.array(fc.oneof(words, fc.constant(''), fc.constant('```'), fc.constant('  indented')), {
      maxLength: 4,
    }),
  )
  .map(([lang, meta, lines]) => ({ type: 'code', lang, meta: lang ? meta : null, value: lines.join('\n') }));

/**
 * Loose lists at the top level only: in a quote or a footnote, mdast-util-from-markdown may count the
 * blank lines between items as an item's own (README.md, the library quirk), so the canonical form of
 * such Markdown is not what it reads.
 */
function list(depth: number, footnotes: boolean, top: boolean): fc.Arbitrary<BlockContent> {
  const item = (task: boolean) =>
    fc
      .tuple(
        sequence({ ...paragraphContext, footnotes }, 1),
        fc.array(block(depth - 1, footnotes), { maxLength: 2 }).filter(noListBeforeContainer),
        task ? fc.option(fc.boolean(), { nil: null }) : fc.constant(null),
      )
      .map(
        ([first, rest, checked]): ListItem => ({
          type: 'listItem',
          spread: false,
          checked,
          children: [{ type: 'paragraph', children: first }, ...rest],
        }),
      );
  return fc
    .tuple(
      fc.constantFrom('bullet', 'task', 'ordered'),
      fc.constantFrom(1, 3),
      fc.boolean().map((b) => b && top),
    )
    .chain(([kind, start, spread]) =>
      fc
        .array(item(kind === 'task' || (kind === 'ordered' && start === 3)), { minLength: 1, maxLength: 3 })
        .map(
          (children): BlockContent => ({
            type: 'list',
            ordered: kind === 'ordered',
            start: kind === 'ordered' ? start : null,
            spread,
            children,
          }),
        ),
    );
}

function table(footnotes: boolean): fc.Arbitrary<BlockContent> {
  const cellContent = sequence({ ...lineContext, footnotes }, 1);
  return fc.integer({ min: 1, max: 3 }).chain((width) =>
    fc
      .tuple(
        fc.array(fc.constantFrom(null, 'center', 'right'), { minLength: width, maxLength: width }),
        fc.array(cellContent, { minLength: width, maxLength: width }),
        fc.array(
          fc
            .integer({ min: 1, max: width })
            .chain((n) => fc.array(cellContent, { minLength: n, maxLength: n })),
          {
            maxLength: 3,
          },
        ),
      )
      .map(([align, header, rows]): BlockContent => {
        const row = (cells: PhrasingContent[][]): TableRow => ({
          type: 'tableRow',
          children: cells.map((children): TableCell => ({ type: 'tableCell', children })),
        });
        return { type: 'table', align, children: [row(header), ...rows.map(row)] };
      }),
  );
}

const frontmatter = fc.dictionary(
  fc.constantFrom('title', 'description', 'tags', 'hidden', 'order', 'x-y'),
  fc.oneof(
    words,
    fc.integer({ min: -5, max: 500 }),
    fc.boolean(),
    fc.array(words, { maxLength: 3 }),
    fc.constant('yes'),
  ),
  { maxKeys: 4 },
);

/** The footnote labels a tree cites, in order of first citation. */
function citedLabels(nodes: readonly Nodes[], found: string[] = []): string[] {
  for (const node of nodes) {
    if (node.type === 'footnoteReference' && !found.includes(node.identifier)) found.push(node.identifier);
    if ('children' in node) citedLabels(node.children, found);
  }
  return found;
}

/** A document of up to `size` blocks nested `depth` deep, footnote bodies one less. */
const markdownDocumentOf = (
  depth: number,
  size: number,
): fc.Arbitrary<{ markdown: string; frontmatter: Record<string, unknown> }> =>
  fc
    .tuple(
      frontmatter,
      fc.array(block(depth, true, true), { maxLength: size }),
      fc.array(
        fc.array(block(depth - 1, false), { minLength: 1, maxLength: 2 }).filter(noListBeforeContainer),
        {
          minLength: LABELS.length,
          maxLength: LABELS.length,
        },
      ),
    )
    .map(([data, blocks, bodies]) => {
      // Footnote definitions at the end, in the order of their first citation, as documents write them.
      const definitions = citedLabels(blocks).map(
        (label): FootnoteDefinition => ({
          type: 'footnoteDefinition',
          identifier: label,
          label,
          children: bodies[LABELS.indexOf(label)],
        }),
      );
      const yaml: RootContent[] =
        Object.keys(data).length > 0
          ? [{ type: 'yaml', value: stringify(data, { lineWidth: 0 }).trimEnd() }]
          : [];
      const root: Root = { type: 'root', children: [...yaml, ...blocks, ...definitions] };
      return { markdown: serializeMarkdown(root), frontmatter: data };
    });

const markdownDocument = markdownDocumentOf(2, 6);

describe('Markdown ↔ GitBook document round trips', () => {
  // ROUND_TRIP_RUNS=5000 for a longer search than the suite's.
  const runs = { numRuns: Number(process.env.ROUND_TRIP_RUNS ?? 100) };

  it('Markdown → document → Markdown is the canonical form of the Markdown', () => {
    fc.assert(
      fc.property(markdownDocument, ({ markdown }) => {
        const { document, frontmatter: data } = markdownToDocument(markdown);
        expect(documentToMarkdown(document, data)).toBe(normalizeMarkdown(markdown));
      }),
      runs,
    );
  });

  it('document → Markdown → document gives the same document, keys included', () => {
    fc.assert(
      fc.property(markdownDocument, ({ markdown, frontmatter: data }) => {
        const read = markdownToDocument(markdown);
        expect(read.frontmatter).toEqual(data);
        expect(markdownToDocument(documentToMarkdown(read.document, read.frontmatter))).toEqual(read);
      }),
      runs,
    );
  });

  it("the GitBook form of every document is valid under GitBook's schema, strictly", () => {
    // Shallower and fewer: the strict validator's time grows about fivefold with each level of nesting.
    fc.assert(
      fc.property(markdownDocumentOf(1, 3), ({ markdown }) => {
        const view = gitbookDocument(markdownToDocument(markdown).document);
        expect(schemaProblem('JSONDocument', view)).toBeUndefined();
        expect(gitbookDocument(view)).toEqual(view);
      }),
      { numRuns: Math.ceil(runs.numRuns / 7) },
    );
  }, 60_000);

  it('reading the same Markdown twice gives identical documents', () => {
    fc.assert(
      fc.property(markdownDocument, ({ markdown }) => {
        expect(JSON.stringify(markdownToDocument(markdown))).toBe(
          JSON.stringify(markdownToDocument(markdown)),
        );
      }),
      { numRuns: 50 },
    );
  });
});
