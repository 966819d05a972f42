/**
 * A stored document as GitBook's schema has it, for answers in `format=document`: the API's responses
 * hold no field GitBook's schema does not list (test/support/openapi.ts checks them so). The stored
 * document keeps docs-hub's Markdown extensions (document.ts), so that Markdown reads are exact; here
 * they go: a soft line break becomes the space it renders as, inline HTML plain text, the code and link
 * extensions are dropped, and blocks nested where GitBook allows none move out (a quote splits around
 * them; in a footnote's body a quote gives its blocks and a table its cells). GitBook's dialect blocks
 * follow its nesting rules too (a hint splits as a quote does; a tab, a step, a column or a list item
 * gives the content of a block it may not hold), captions GitBook's schema does not list go, and a file
 * that names no stored file becomes a link to it. A loose list's `spread`, a figure's and an aligned
 * column's `markdown` go; a math block where GitBook has none is a paragraph of its formula inline, and
 * an expandable where GitBook has none (in a list item, a tab, a footnote, another expandable) gives its
 * title and its body. Keys stay the stored ones.
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

// GitBook's nesting rules for the blocks of its Markdown dialect (dialect/liquid-blocks.ts): a hint splits
// around what it may not hold, as a quote does; the other containers give such blocks' content.
const ESSENTIALS = [...IN_QUOTE].filter((type) => type !== 'blockquote');
/** `DocumentBlockHint`'s nodes. */
const IN_HINT = new Set([...ESSENTIALS, 'embed', 'integration', 'table']);
/** The blocks a hint or a quote may hold; the others split it. */
const SPLIT: Readonly<Record<string, ReadonlySet<string>>> = { blockquote: IN_QUOTE, hint: IN_HINT };
/** `DocumentBlockTabsItem`'s nodes. */
const IN_TAB = new Set([
  ...ESSENTIALS,
  ...['content-ref', 'code', 'embed', 'file', 'images', 'drawing', 'hint', 'prompt', 'blockquote', 'math'],
  'integration',
]);
/** The blocks each container may hold, by its type: those it may not give their content. */
const HOLDS: Readonly<Record<string, ReadonlySet<string>>> = {
  tabs: new Set(['tabs-item']),
  'tabs-item': IN_TAB,
  stepper: new Set(['stepper-step']),
  'stepper-step': new Set([...IN_TAB, 'expandable']),
  columns: new Set(['column']),
  column: new Set([...IN_TAB, 'table', 'expandable', 'stepper']),
  'list-item': new Set([...ESSENTIALS, 'code', 'hint', 'blockquote', 'math', 'table']),
};
/** Blocks whose caption is docs-hub's (GitBook's schema lists no fragments for them). */
const CAPTIONED = new Set(['embed', 'file', 'content-ref', 'swagger', 'openapi-operation']);

export function gitbookDocument(document: Document): Document {
  return { ...document, nodes: topLevel(blocks(document.nodes as DocumentBlock[])) };
}

function blocks(nodes: readonly DocumentBlock[]): DocumentBlock[] {
  return nodes.flatMap((node) => {
    const allowed = SPLIT[node.type];
    return allowed ? split(node, allowed) : [block(node)];
  });
}

// --- GitBook's HTML dialect and math (dialect/): math and expandables where GitBook's schema has none.
/** `DocumentBlockExpandable`'s body nodes. */
const IN_EXPANDABLE = new Set([...IN_QUOTE, 'code', 'table', 'hint', 'images', 'file']);

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
    const nodes = fitInto(f.nodes as DocumentBlock[], IN_EXPANDABLE);
    return { ...f, nodes: nodes.length > 0 ? nodes : [emptyParagraph()] };
  });
}

const emptyParagraph = (): DocumentBlock => ({
  object: 'block',
  type: 'paragraph',
  data: {},
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] }],
});
// --- end of GitBook's HTML dialect and math

/**
 * A quote or a hint holding blocks GitBook does not allow there: quotes (hints) of the allowed runs,
 * the others between; a math block stays in, as a paragraph of its formula inline.
 */
function split(container: DocumentBlock, allowed: ReadonlySet<string>): DocumentBlock[] {
  const out: DocumentBlock[] = [];
  let run: DocumentBlock[] = [];
  const flush = () => {
    if (run.length === 0) return;
    const key = out.length === 0 ? container.key : `${container.key}-${out.length}`;
    out.push({ ...container, ...(key === undefined ? {} : { key }), nodes: run } as DocumentBlock);
    run = [];
  };
  for (const child of blocks(childrenOf(container) as DocumentBlock[])) {
    if (allowed.has(child.type)) run.push(child);
    else if (child.type === 'math') run.push(mathParagraph(child.data.formula));
    else {
      flush();
      out.push(child);
    }
  }
  flush();
  return out.length > 0 ? out : [container];
}

function block(node: DocumentBlock): DocumentBlock {
  const copy = { ...node } as Record<string, unknown>;
  if (node.type === 'code') {
    const { markdown: _markdown, meta: _meta, ...data } = node.data as CodeData;
    copy.data = data;
  }
  withoutDialectData(node, copy);
  // A file GitBook does not store (an asset path): a link to it.
  if (node.type === 'file' && !isFileRef(node.data.ref)) return refParagraph(node);
  if ('nodes' in node) {
    const children = content(childrenOf(node));
    const holds = HOLDS[node.type];
    copy.nodes = holds ? fitInto(children as DocumentBlock[], holds) : children;
  }
  if (CAPTIONED.has(node.type)) delete copy.fragments;
  else if ('fragments' in node) {
    copy.fragments = fragmentsOf(node).map((f) => ({ ...f, nodes: blocks(f.nodes) }));
    if (node.type === 'expandable')
      copy.fragments = expandableFragments(copy.fragments as DocumentFragment[]);
  }
  return copy as unknown as DocumentBlock;
}

/**
 * Blocks (made GitBook's already) where only `allowed` may be: the others give their content (an
 * expandable its title and its body), a math block a paragraph of its formula inline, a table its
 * cells, a reference a paragraph linking to it.
 */
function fitInto(nodes: readonly DocumentBlock[], allowed: ReadonlySet<string>): DocumentBlock[] {
  return nodes.flatMap((node): DocumentBlock[] => {
    if (allowed.has(node.type)) return [node];
    if (node.type === 'math') return fitInto([mathParagraph(node.data.formula)], allowed);
    if (node.type === 'table') return fitInto(tableCells(node), allowed);
    if ('isVoid' in node && node.isVoid && (refOf(node) || node.type === 'embed'))
      return fitInto([refParagraph(node)], allowed);
    const inner = [...childrenOf(node), ...fragmentsOf(node).flatMap((f) => f.nodes)];
    return fitInto(
      inner.filter((child): child is DocumentBlock => child.object === 'block'),
      allowed,
    );
  });
}

const refOf = (node: DocumentBlock): ContentRef | undefined => (node.data as { ref?: ContentRef }).ref;
const isFileRef = (ref: ContentRef | undefined) => ref?.kind === 'file';

/** A paragraph linking to what a block refers to (a file, an embed), by its caption or its URL. */
function refParagraph(node: DocumentBlock): DocumentBlock {
  const data = node.data as { ref?: ContentRef; url?: string };
  const ref: ContentRef = data.ref ?? { kind: 'url', url: data.url ?? '' };
  const caption = fragmentsOf(node)
    .flatMap((f) => f.nodes)
    .flatMap((n) => childrenOf(n))
    .flatMap((n) => (isText(n) ? [plainText(n)] : []));
  const label =
    caption.map((t) => t.leaves.map((l) => l.text).join('')).join('') || (ref.kind === 'url' ? ref.url : '');
  return {
    object: 'block',
    type: 'paragraph',
    ...(node.key === undefined ? {} : { key: node.key }),
    data: {},
    nodes: [
      plainText({ object: 'text', leaves: [] }),
      {
        object: 'inline',
        type: 'link',
        data: { ref },
        nodes: [plainText({ object: 'text', leaves: [{ object: 'leaf', text: label, marks: [] }] })],
      },
      plainText({ object: 'text', leaves: [] }),
    ],
  } as DocumentBlock;
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
  const body = fitInto(nodes, IN_ANNOTATION);
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
