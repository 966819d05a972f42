/**
 * A stored document as GitBook's schema has it, for answers in `format=document`: the API's responses
 * hold no field GitBook's schema does not list (test/support/openapi.ts checks them so). The stored
 * document keeps docs-hub's Markdown extensions (document.ts), so that Markdown reads are exact; here
 * they go: a soft line break becomes the space it renders as, inline HTML plain text, the code and link
 * extensions are dropped, and blocks nested where GitBook allows none move out (a quote splits around
 * them; in a footnote's body a quote gives its blocks and a table its cells). Keys stay the stored ones.
 */
import {
  type CodeData,
  childrenOf,
  type Document,
  type DocumentBlock,
  type DocumentBlockTable,
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
  for (const child of blocks(quote.nodes as DocumentBlock[])) {
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
  if ('nodes' in node) copy.nodes = content(childrenOf(node));
  if ('fragments' in node) {
    copy.fragments = fragmentsOf(node).map((f) => ({ ...f, nodes: blocks(f.nodes) }));
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

function annotationBody(nodes: DocumentBlock[]): DocumentBlock[] {
  const body = nodes.flatMap((node): DocumentBlock[] => {
    if (IN_ANNOTATION.has(node.type)) return [node];
    if (node.type === 'table') return tableCells(node);
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
