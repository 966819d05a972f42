/** The text of a document, for search: all of it, and its headings with their anchors. */
import GithubSlugger from 'github-slugger';
import {
  childrenOf,
  type Document,
  type DocumentBlock,
  type DocumentBlockTable,
  type DocumentNode,
  fragmentsOf,
  isText,
  type Leaf,
} from './document';

export interface DocumentHeading {
  key?: string;
  level: 1 | 2 | 3;
  text: string;
  /** The heading's id in a page URL: its `data.id`, or a GitHub-style slug of its text (unique in the page). */
  anchor: string;
}

/** The plain text of inline content; a soft line break reads as the space it renders as. */
export function inlineText(nodes: readonly DocumentNode[]): string {
  return nodes
    .map((node) =>
      isText(node)
        ? node.leaves.map((l: Leaf) => (l.markdown === 'soft-break' ? ' ' : l.text)).join('')
        : inlineText(childrenOf(node)),
    )
    .join('');
}

/** The document's text, a line per paragraph, heading, code line, caption and table cell. */
export function documentText(document: Document): string {
  return blocksText(document.nodes as DocumentBlock[]).join('\n');
}

function blocksText(blocks: readonly DocumentNode[]): string[] {
  return blocks.flatMap((block): string[] => {
    if (block.object !== 'block') return [];
    if (block.type === 'table') return tableText(block);
    const children = childrenOf(block);
    const own = fragmentsOf(block).flatMap((fragment) => blocksText(fragment.nodes));
    if (children.some((child) => child.object !== 'block')) {
      // A block of inline content: its line, then the bodies of its inlines (annotations).
      return [inlineText(children), ...inlineFragmentsText(children), ...own];
    }
    return [...blocksText(children), ...own];
  });
}

function inlineFragmentsText(nodes: readonly DocumentNode[]): string[] {
  return nodes.flatMap((node) => [
    ...fragmentsOf(node).flatMap((fragment) => blocksText(fragment.nodes)),
    ...(isText(node) ? [] : inlineFragmentsText(childrenOf(node))),
  ]);
}

/** Column titles, then the cells row by row. */
function tableText(table: DocumentBlockTable): string[] {
  const { view, definition, records } = table.data;
  const columns = view.type === 'grid' ? view.columns : Object.keys(definition);
  const byName = new Map(table.fragments.map((f) => [f.fragment, f]));
  const rows = Object.values(records).sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : 1));
  return [
    ...columns.map((id) => definition[id]?.title ?? ''),
    ...rows.flatMap((record) =>
      columns.flatMap((id) => {
        const value = record.values[id];
        const cell = typeof value === 'string' ? byName.get(value) : undefined;
        return cell ? blocksText(cell.nodes) : [];
      }),
    ),
  ];
}

/** Every heading of the document, nested ones too, in document order. */
export function documentHeadings(document: Document): DocumentHeading[] {
  const slugger = new GithubSlugger();
  const headings: DocumentHeading[] = [];
  const visit = (nodes: readonly DocumentNode[]) => {
    for (const node of nodes) {
      if (node.object !== 'block') continue;
      if (node.type === 'heading-1' || node.type === 'heading-2' || node.type === 'heading-3') {
        const text = inlineText(node.nodes);
        const anchor = node.data.id ?? slugger.slug(text);
        headings.push({ key: node.key, level: Number(node.type.slice(-1)) as 1 | 2 | 3, text, anchor });
        continue;
      }
      visit(childrenOf(node));
      for (const fragment of fragmentsOf(node)) visit(fragment.nodes);
    }
  };
  visit(document.nodes as DocumentBlock[]);
  return headings;
}
