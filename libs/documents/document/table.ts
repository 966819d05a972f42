/**
 * GFM tables and GitBook's table block. GitBook's table is a database view: text columns
 * (`definition`, with a plain-text `title` and an alignment), records keyed by id and ordered by
 * `orderIndex`, and each text cell's value naming a fragment that holds the cell's paragraph.
 *
 * - A header cell with formatting also keeps that content in a fragment named `title-<n>`, since a
 *   title is plain text (it still carries the plain text, for GitBook).
 * - GitBook's alignment is required and left is its default: Markdown's unaligned column is `left`, and
 *   an explicit `:--` is `left` with `markdown: 'aligned'` (extension) so that it is written back so.
 * - A row shorter than the header keeps only its cells (GitBook shows the others empty); cells past
 *   the header's width, which GFM does not render, are dropped.
 */
import type { AlignType, PhrasingContent, Table, TableCell, TableRow } from 'mdast';
import type {
  DocumentBlockParagraph,
  DocumentBlockTable,
  DocumentFragment,
  DocumentTableDefinitionText,
  DocumentTableRecord,
  InlineContent,
} from './document';
import { isText } from './document';
import { inlineText } from './document-text';

type Alignment = DocumentTableDefinitionText['textAlignment'];

/** Builds a paragraph from a cell's Markdown content (the inline conversion lives elsewhere). */
export type ToParagraph = (content: PhrasingContent[]) => DocumentBlockParagraph;
/** Turns a paragraph's inline nodes back into Markdown phrasing. */
export type ToPhrasing = (nodes: InlineContent[]) => PhrasingContent[];

const columnId = (column: number) => `col-${column + 1}`;
const recordId = (row: number) => `row-${row + 1}`;
const cellFragment = (row: number, column: number) => `cell-${row + 1}-${column + 1}`;
const titleFragment = (column: number) => `title-${column + 1}`;
// Fixed width, so that the string order of the indexes is the order of the rows.
const orderIndex = (row: number) => `a${String(row).padStart(6, '0')}`;

export function tableToBlock(table: Table, toParagraph: ToParagraph): DocumentBlockTable {
  const [header, ...rows] = table.children;
  const width = header?.children.length ?? 0;
  const columns = Array.from({ length: width }, (_, i) => i);
  const fragments: DocumentFragment[] = [];
  const definition: Record<string, DocumentTableDefinitionText> = {};
  for (const column of columns) {
    const title = toParagraph(header.children[column].children);
    const plain = plainText(title);
    if (plain === undefined) fragments.push(fragment(titleFragment(column), title));
    definition[columnId(column)] = {
      id: columnId(column),
      title: plain ?? inlineText(title.nodes),
      type: 'text',
      textAlignment: toAlignment(table.align?.[column]),
      ...(table.align?.[column] === 'left' ? { markdown: 'aligned' } : {}),
    } as DocumentTableDefinitionText;
  }
  const records: Record<string, DocumentTableRecord> = {};
  rows.forEach((row, r) => {
    const values: Record<string, string> = {};
    row.children.slice(0, width).forEach((cell, column) => {
      values[columnId(column)] = cellFragment(r, column);
      fragments.push(fragment(cellFragment(r, column), toParagraph(cell.children)));
    });
    records[recordId(r)] = { orderIndex: orderIndex(r), values };
  });
  return {
    object: 'block',
    type: 'table',
    isVoid: true,
    data: {
      view: { type: 'grid', columns: columns.map(columnId), hideHeader: false },
      records,
      definition,
    },
    fragments,
  };
}

export function blockToTable(block: DocumentBlockTable, toPhrasing: ToPhrasing): Table {
  const { view, definition, records } = block.data;
  const columns = view.type === 'grid' ? view.columns : Object.keys(definition);
  const byName = new Map(block.fragments.map((f) => [f.fragment, f]));
  const content = (name: unknown): PhrasingContent[] => {
    const paragraph = typeof name === 'string' ? byName.get(name)?.nodes[0] : undefined;
    return paragraph?.type === 'paragraph' ? toPhrasing(paragraph.nodes) : [];
  };
  const header: TableRow = {
    type: 'tableRow',
    children: columns.map((id, column) => {
      const title = byName.get(titleFragment(column));
      return cell(title ? content(titleFragment(column)) : textCell(definition[id]?.title ?? ''));
    }),
  };
  const rows = Object.values(records)
    .sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0))
    .map((record): TableRow => {
      // Cells up to the last one with a value: a shorter row stays short.
      const last = columns.findLastIndex((id) => record.values[id] !== undefined);
      return {
        type: 'tableRow',
        children: columns.slice(0, last + 1).map((id) => cell(content(record.values[id]))),
      };
    });
  return {
    type: 'table',
    align: columns.map((id) => fromAlignment(definition[id])),
    children: [header, ...rows],
  };
}

const cell = (children: PhrasingContent[]): TableCell => ({ type: 'tableCell', children });

const textCell = (text: string): PhrasingContent[] => (text === '' ? [] : [{ type: 'text', value: text }]);

const fragment = (name: string, paragraph: DocumentBlockParagraph): DocumentFragment => ({
  object: 'fragment',
  fragment: name,
  nodes: [paragraph],
});

const toAlignment = (align: AlignType | undefined): Alignment =>
  align === 'center' || align === 'right' ? align : 'left';

const fromAlignment = (column: DocumentBlockTable['data']['definition'][string] | undefined): AlignType => {
  const align = column && 'textAlignment' in column ? column.textAlignment : undefined;
  if (align === 'left' && (column as { markdown?: string }).markdown === 'aligned') return 'left';
  return align === 'center' || align === 'right' ? align : null;
};

/** The paragraph's text if it is nothing but unformatted text, else undefined. */
function plainText(paragraph: DocumentBlockParagraph): string | undefined {
  const [only, ...rest] = paragraph.nodes;
  if (rest.length > 0 || !only || !isText(only)) return only ? undefined : '';
  const plain = only.leaves.every(
    (l) => l.marks.length === 0 && !('markdown' in l) && !l.text.includes('\n'),
  );
  return plain ? only.leaves.map((l) => l.text).join('') : undefined;
}
