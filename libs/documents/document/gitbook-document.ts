/**
 * A stored document as GitBook's schema has it, for answers in `format=document`: the API's responses
 * hold no field GitBook's schema does not list (test/support/openapi.ts checks them so). The stored
 * document keeps docs-hub's Markdown extensions (document.ts), so that Markdown reads are exact; here
 * they go: a soft line break becomes the space it renders as, inline HTML plain text, the code and link
 * extensions are dropped, and blocks nested where GitBook allows none move out (a quote splits around
 * them; in a footnote's body a quote gives its blocks and a table its cells). Keys stay the stored ones.
 * GitBook's dialect (dialect/): a loose list's `spread`, a figure's and an aligned column's `markdown`
 * go; a math block where GitBook has none is a paragraph of its formula inline, and an expandable where
 * GitBook has none (in a list item, a footnote, another expandable) gives its title and its body.
 */
import {
  type CodeData,
  type ContentRef,
  childrenOf,
  type Document,
  type DocumentBlock,
  type DocumentBlockTable,
  type DocumentFragment,
  type DocumentNode,
  type DocumentText,
  fragmentsOf,
  isText,
  type Leaf,
  type LinkData,
  topLevel,
} from './document';

/** Blocks GitBook allows in a quote (`DocumentBlocksEssentials` and quotes). */
const IN_QUOTE = new Set([
  'paragraph',
  'heading-1',
  'heading-2',
  'heading-3',
  'list-ordered',
  'list-unordered',
  'list-tasks',
  'divider',
  'blockquote',
]);
/** Blocks GitBook allows in an annotation's body (`DocumentBlocksEssentials` and code). */
const IN_ANNOTATION = new Set([...IN_QUOTE].filter((type) => type !== 'blockquote').concat('code'));

export function gitbookDocument(document: Document): Document {
  return { ...document, nodes: topLevel(blocks(document.nodes as DocumentBlock[])) };
}

function blocks(nodes: readonly DocumentBlock[]): DocumentBlock[] {
  return nodes.flatMap((node) => (node.type === 'blockquote' ? splitQuote(node) : [block(node)]));
}

// --- GitBook's dialect (dialect/): math and expandables where GitBook's schema has none.
/** Blocks GitBook allows in a list item and in an expandable's body, besides those of a quote. */
const IN_LIST_ITEM = new Set([...IN_QUOTE, 'code', 'hint', 'math', 'table']);
const IN_EXPANDABLE = new Set([...IN_QUOTE, 'code', 'table', 'hint', 'images', 'file']);

/** What GitBook has in place of a block it does not allow here: math inline, an expandable's content. */
function fitBlocks(nodes: readonly DocumentBlock[], allowed: ReadonlySet<string>): DocumentBlock[] {
  return nodes.flatMap((node): DocumentBlock[] => {
    if (allowed.has(node.type)) return [node];
    if (node.type === 'math') return [mathParagraph(node.data.formula)];
    if (node.type === 'expandable') return fitBlocks(unwrapExpandable(node), allowed);
    return [node];
  });
}

const mathParagraph = (formula: string): DocumentBlock => ({
  object: 'block',
  type: 'paragraph',
  data: {},
  nodes: [
    { object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] },
    { object: 'inline', type: 'inline-math', isVoid: true, data: { formula } },
    { object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] },
  ],
});

const unwrapExpandable = (node: Extract<DocumentBlock, { type: 'expandable' }>): DocumentBlock[] =>
  node.fragments.flatMap((f) => f.nodes as DocumentBlock[]);

/** Docs-hub's extensions in the data of lists, images and math blocks. */
function withoutDialectData(node: DocumentBlock, copy: Record<string, unknown>): void {
  if (node.type.startsWith('list-') && node.type !== 'list-item') {
    const { spread: _spread, ...data } = node.data as { spread?: boolean };
    copy.data = data;
  }
  if (node.type === 'images' || node.type === 'math') {
    const { markdown: _markdown, meta: _meta, ...data } = node.data as { markdown?: string; meta?: string };
    copy.data = data;
  }
  if (node.type === 'table') {
    const definition = Object.fromEntries(
      Object.entries(node.data.definition).map(([id, column]) => {
        const { markdown: _markdown, ...rest } = column as { markdown?: string };
        return [id, rest];
      }),
    );
    copy.data = { ...node.data, definition };
  }
}

/** An expandable's fragments as GitBook has them: a body of at least one block it allows there. */
function expandableFragments(fragments: DocumentFragment[]): DocumentFragment[] {
  return fragments.map((f) => {
    if (f.fragment !== 'expandable-body') return f;
    const nodes = fitBlocks(f.nodes as DocumentBlock[], IN_EXPANDABLE);
    return { ...f, nodes: nodes.length > 0 ? nodes : [emptyParagraph()] };
  });
}

const emptyParagraph = (): DocumentBlock => ({
  object: 'block',
  type: 'paragraph',
  data: {},
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] }],
});
// --- end of GitBook's dialect

/** A quote holding blocks GitBook does not allow there: quotes of the allowed runs, the others between. */
function splitQuote(quote: Extract<DocumentBlock, { type: 'blockquote' }>): DocumentBlock[] {
  const out: DocumentBlock[] = [];
  let run: DocumentBlock[] = [];
  const flush = () => {
    if (run.length === 0) return;
    const key = out.length === 0 ? quote.key : `${quote.key}-${out.length}`;
    out.push({ ...quote, ...(key === undefined ? {} : { key }), nodes: run as typeof quote.nodes });
    run = [];
  };
  for (const child of fitBlocks(
    blocks(quote.nodes as DocumentBlock[]),
    new Set([...IN_QUOTE, 'expandable']),
  )) {
    if (IN_QUOTE.has(child.type)) run.push(child);
    else {
      flush();
      out.push(child);
    }
  }
  flush();
  return out.length > 0 ? out : [quote];
}

function block(node: DocumentBlock): DocumentBlock {
  const copy = { ...node } as Record<string, unknown>;
  if (node.type === 'code') {
    const { markdown: _markdown, meta: _meta, ...data } = node.data as CodeData;
    copy.data = data;
  }
  withoutDialectData(node, copy);
  if ('nodes' in node) copy.nodes = content(childrenOf(node));
  if (node.type === 'list-item') copy.nodes = fitBlocks(copy.nodes as DocumentBlock[], IN_LIST_ITEM);
  if ('fragments' in node) {
    copy.fragments = fragmentsOf(node).map((f) => ({ ...f, nodes: blocks(f.nodes) }));
    if (node.type === 'expandable')
      copy.fragments = expandableFragments(copy.fragments as DocumentFragment[]);
  }
  return copy as unknown as DocumentBlock;
}

/** A block's children: blocks, or inline content with its leaves made plain. */
function content(nodes: readonly DocumentNode[]): DocumentNode[] {
  return nodes.flatMap((node) => {
    if (isText(node)) return [plainText(node)];
    if (node.object === 'block') return blocks([node]);
    return [inline(node)];
  });
}

function inline(node: Exclude<DocumentNode, DocumentText | DocumentBlock>): DocumentNode {
  // GitBook's schema for a button cannot be met (the branch with its `ref` says `additionalProperties:
  // false` of the whole data, label and kind included): a button is answered as a link of its label.
  if (node.type === 'button') return buttonLink(node.data as { label: string; ref?: ContentRef });
  if (node.type === 'link') {
    const { title: _title, ...data } = node.data as LinkData;
    // GitBook links hold texts and images only (a footnote in a link's text gives its label).
    const nodes = content(node.nodes).map((child) =>
      isText(child) || child.type === 'inline-image'
        ? child
        : plainText({ object: 'text', leaves: leavesOf(child) }),
    );
    return { ...node, data, nodes: nodes as typeof node.nodes };
  }
  if (node.type === 'annotation') {
    const fragments = node.fragments.map((f) => ({
      ...f,
      nodes: annotationBody(blocks(f.nodes as DocumentBlock[])),
    }));
    return { ...node, nodes: node.nodes.map(plainText), fragments: fragments as typeof node.fragments };
  }
  return 'nodes' in node ? ({ ...node, nodes: content(childrenOf(node)) } as unknown as DocumentNode) : node;
}

function buttonLink(data: { label: string; ref?: ContentRef }): DocumentNode {
  const label: DocumentText = { object: 'text', leaves: [{ object: 'leaf', text: data.label, marks: [] }] };
  if (!data.ref) return label;
  return { object: 'inline', type: 'link', data: { ref: data.ref }, nodes: [label] } as DocumentNode;
}

function annotationBody(nodes: DocumentBlock[]): DocumentBlock[] {
  const body = nodes.flatMap((node): DocumentBlock[] => {
    if (IN_ANNOTATION.has(node.type)) return [node];
    if (node.type === 'table') return tableCells(node);
    if (node.type === 'math' || node.type === 'expandable')
      return annotationBody(fitBlocks([node], IN_ANNOTATION));
    return annotationBody(
      childrenOf(node).filter((child): child is DocumentBlock => child.object === 'block'),
    );
  });
  // GitBook wants at least one block there.
  return body.length > 0
    ? body
    : [{ object: 'block', type: 'paragraph', data: {}, nodes: [plainText({ object: 'text', leaves: [] })] }];
}

/** A table's cell paragraphs, in row order. */
function tableCells(table: DocumentBlockTable): DocumentBlock[] {
  const byName = new Map(table.fragments.map((f) => [f.fragment, f.nodes]));
  const columns =
    table.data.view.type === 'grid' ? table.data.view.columns : Object.keys(table.data.definition);
  return Object.values(table.data.records)
    .sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : 1))
    .flatMap((record) => columns.flatMap((id) => byName.get(record.values[id] as string) ?? []));
}

/** A text without the Markdown extensions: soft breaks as spaces, HTML as its text, equal leaves merged. */
function plainText(text: DocumentText): DocumentText {
  const leaves: Leaf[] = [];
  for (const original of text.leaves as Leaf[]) {
    const { markdown, ...rest } = original;
    const l = { ...rest, text: markdown === 'soft-break' ? ' ' : rest.text };
    const last = leaves.at(-1);
    if (last && sameMarks(last, l)) last.text += l.text;
    else if (l.text !== '') leaves.push(l);
  }
  return { ...text, leaves: leaves.length > 0 ? leaves : [{ object: 'leaf', text: '', marks: [] }] };
}

const sameMarks = (a: Leaf, b: Leaf) => JSON.stringify(a.marks) === JSON.stringify(b.marks);

const leavesOf = (node: DocumentNode): Leaf[] =>
  isText(node) ? (node.leaves as Leaf[]) : childrenOf(node).flatMap(leavesOf);
