/**
 * Pages and their GitBook documents as one PDF, for printing or reading offline: each page on a new PDF
 * page under its title, its blocks in order, the PDF's outline following the page tree. Pure: the same
 * pages and options give the same bytes.
 */

import {
  childrenOf,
  type Document,
  type DocumentBlock,
  type DocumentBlockTable,
  type DocumentNode,
  type DocumentTextMark,
  fragmentsOf,
  isText,
  type Leaf,
} from '@app/documents/document';
import { inlineText } from '@app/documents/document/document-text';
import { PDFDocument, rgb } from 'pdf-lib';
import { type Color, type Frame, Layout, MARGIN, ROOT_FRAME, type Run, type TextStyle } from './layout';
import { addOutline, type OutlineEntry } from './outline';

export interface PdfPage {
  title: string;
  /** 0 for a top-level page: deeper pages have smaller titles and nest in the outline. */
  depth: number;
  /** The page's body (GitBook's JSON document); a group or an empty page has none. */
  document?: Document;
}

export interface PdfOptions {
  /** The PDF's title (its metadata, and the heading of the one page of an empty PDF). */
  title: string;
  /** The PDF's creation and modification dates. */
  createdAt: Date;
}

const PRODUCER = 'docs-hub';

const TEXT: Color = [0.13, 0.13, 0.13];
const MUTED: Color = [0.42, 0.42, 0.42];
const LINK: Color = [0.09, 0.33, 0.73];
const RULE: Color = [0.8, 0.8, 0.8];
const QUOTE_BAR: Color = [0.78, 0.78, 0.78];
const CODE_BACKGROUND: Color = [0.95, 0.95, 0.96];
const HINT_BARS: Record<string, Color> = {
  info: [0.2, 0.45, 0.85],
  warning: [0.93, 0.6, 0.1],
  danger: [0.85, 0.2, 0.2],
  success: [0.2, 0.65, 0.35],
};

const BODY: TextStyle = { size: 10.5, color: TEXT };
const CODE: TextStyle = { size: 9, color: TEXT, mono: true };
const HEADINGS: Record<string, TextStyle> = {
  'heading-1': { size: 17, color: TEXT, bold: true },
  'heading-2': { size: 14, color: TEXT, bold: true },
  'heading-3': { size: 12, color: TEXT, bold: true },
};
/** Page titles by depth, the last for any deeper page. */
const TITLE_SIZES = [22, 19, 17];

const PARAGRAPH_GAP = 6;
const HEADING_GAP = 12;
const ITEM_GAP = 2;
const QUOTE_INDENT = 14;
const LIST_INDENT = 18;
const BULLETS = ['\u2022', '\u2013'];

/**
 * Renders pages in order into one PDF: each page on a new PDF page, its title as a heading, then its
 * document's blocks. An empty list gives a PDF of one page holding the title.
 */
export async function renderPdf(pages: readonly PdfPage[], options: PdfOptions): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle(options.title, { showInWindowTitleBar: true });
  doc.setCreator(PRODUCER);
  doc.setProducer(PRODUCER);
  doc.setCreationDate(options.createdAt);
  doc.setModificationDate(options.createdAt);

  const layout = new Layout(doc);
  const outline: OutlineEntry[] = [];
  for (const page of pages.length > 0 ? pages : [{ title: options.title, depth: 0 }]) {
    const pdfPage = layout.newPage();
    outline.push({ title: page.title, depth: page.depth, page: pdfPage.ref, top: layout.cursor });
    const size = TITLE_SIZES[Math.min(Math.max(page.depth, 0), TITLE_SIZES.length - 1)];
    layout.paragraph([{ text: page.title, style: { size, color: TEXT, bold: true } }], ROOT_FRAME, {
      leading: 1.25,
    });
    if (page.document) {
      layout.gap(HEADING_GAP);
      new DocumentWriter(layout).write(page.document);
    }
  }
  layout.numberPages({ size: 8, color: MUTED });
  if (pages.length > 0) addOutline(doc, outline);
  return doc.save({ addDefaultPage: false });
}

/**
 * A document's blocks on the layout. Annotations (footnotes) are their text in place, and their bodies
 * follow the document, each under the text it annotates (a Markdown footnote's is its label).
 */
class DocumentWriter {
  private readonly notes: Array<{ label: string; blocks: DocumentNode[] }> = [];

  constructor(private readonly layout: Layout) {}

  write(document: Document): void {
    this.blocks(childrenOf(document), ROOT_FRAME);
    if (this.notes.length === 0) return;
    this.layout.gap(HEADING_GAP);
    this.layout.rule(ROOT_FRAME, RULE, 0.5);
    this.layout.gap(PARAGRAPH_GAP);
    // A note may hold notes: they join the list while it is written.
    for (let index = 0; index < this.notes.length; index++) {
      if (index > 0) this.layout.gap(PARAGRAPH_GAP);
      const { label, blocks } = this.notes[index];
      this.layout.paragraph([{ text: label, style: { ...BODY, bold: true } }], ROOT_FRAME);
      this.blocks(blocks, { ...ROOT_FRAME, indent: LIST_INDENT });
    }
  }

  private blocks(nodes: readonly DocumentNode[], frame: Frame, listDepth = 0): void {
    let first = true;
    for (const node of nodes) {
      if (node.object !== 'block') continue;
      if (!first) this.layout.gap(node.type.startsWith('heading-') ? HEADING_GAP : PARAGRAPH_GAP, frame);
      first = false;
      this.block(node, frame, listDepth);
    }
  }

  private block(block: DocumentBlock, frame: Frame, listDepth: number): void {
    const { layout } = this;
    switch (block.type) {
      case 'paragraph':
        layout.paragraph(this.runs(block.nodes, BODY), frame, { align: alignment(block.data) });
        break;
      case 'heading-1':
      case 'heading-2':
      case 'heading-3': {
        const style = HEADINGS[block.type];
        // Not alone at the foot of a page: a heading keeps a few lines of what follows with it.
        layout.ensure(style.size * 1.3 + 3 * BODY.size * 1.4);
        layout.paragraph(this.runs(block.nodes, style), frame, {
          leading: 1.3,
          align: alignment(block.data),
        });
        break;
      }
      case 'list-ordered':
      case 'list-unordered':
      case 'list-tasks':
        this.list(block, frame, listDepth);
        break;
      case 'blockquote':
        this.blocks(block.nodes, barred(frame, QUOTE_BAR), listDepth);
        break;
      case 'hint':
        this.blocks(block.nodes, barred(frame, HINT_BARS[block.data.style] ?? QUOTE_BAR), listDepth);
        break;
      case 'code':
        this.code(block, frame);
        break;
      case 'math':
        layout.paragraph([{ text: block.data.formula, style: CODE }], frame, { preserveIndent: true });
        break;
      case 'divider':
        layout.gap(PARAGRAPH_GAP, frame);
        layout.rule(frame, RULE);
        layout.gap(PARAGRAPH_GAP, frame);
        break;
      case 'images':
        this.blocks(block.nodes, frame, listDepth);
        break;
      case 'image': {
        const caption = fragmentsOf(block)
          .filter((f) => f.fragment === 'caption')
          .map((f) => inlineText(f.nodes.flatMap(childrenOf)))
          .join(' ');
        layout.paragraph([imageRun(block.data.alt, caption)], frame);
        break;
      }
      case 'table':
        this.table(block, frame);
        break;
      case 'embed':
        layout.paragraph([linkRun(block.data.url, BODY)], frame);
        break;
      case 'content-ref':
        if (block.data.ref.kind === 'url') layout.paragraph([linkRun(block.data.ref.url, BODY)], frame);
        break;
      case 'tabs-item':
        if (block.data.title)
          layout.paragraph([{ text: block.data.title, style: { ...BODY, bold: true } }], frame);
        this.blocks(block.nodes, frame, listDepth);
        break;
      case 'expandable':
        for (const [index, fragment] of block.fragments.entries()) {
          if (index > 0) layout.gap(PARAGRAPH_GAP, frame);
          if (fragment.fragment === 'expandable-title') {
            layout.paragraph(this.blocksInline(fragment.nodes, { ...BODY, bold: true }), frame);
          } else this.blocks(fragment.nodes, frame, listDepth);
        }
        break;
      default: {
        // GitBook's other blocks keep their content: their inline text, blocks and fragments.
        const children = childrenOf(block);
        if (children.some((child) => child.object !== 'block')) {
          layout.paragraph(this.runs(children, BODY), frame);
        } else this.blocks(children, frame, listDepth);
        for (const fragment of fragmentsOf(block)) {
          layout.gap(PARAGRAPH_GAP, frame);
          this.blocks(fragment.nodes, frame, listDepth);
        }
      }
    }
  }

  private list(
    list: Extract<DocumentBlock, { type: 'list-ordered' | 'list-unordered' | 'list-tasks' }>,
    frame: Frame,
    depth: number,
  ): void {
    const start = list.type === 'list-ordered' ? (list.data.start ?? 1) : undefined;
    const labels = list.nodes.map((_, index) =>
      start === undefined ? BULLETS[depth % BULLETS.length] : `${start + index}.`,
    );
    // Numbers are right-aligned in a column as wide as the widest of them.
    const widest = Math.max(0, ...labels.map((label) => this.layout.width(label, BODY)));
    list.nodes.forEach((item, index) => {
      if (index > 0) this.layout.gap(ITEM_GAP, frame);
      // A task shows its box (after its number in an ordered list) rather than a bullet.
      const checked = item.data?.checked;
      const label = checked !== undefined && start === undefined ? '' : labels[index];
      this.item(label, childrenOf(item), frame, Math.max(LIST_INDENT, widest + 8), {
        checked,
        depth: depth + 1,
      });
    });
  }

  /** A list item: its label (number or bullet) and a task's box beside the first line of its blocks. */
  private item(
    label: string,
    blocks: readonly DocumentNode[],
    frame: Frame,
    indent: number,
    options: { checked?: boolean; depth?: number } = {},
  ): void {
    const { layout } = this;
    const box = options.checked === undefined ? 0 : 9;
    const inner: Frame = { ...frame, indent: frame.indent + indent + box, background: undefined };
    layout.setMarker((page, baseline, size) => {
      // Labels end a little before the item's text; a task's box stands between them.
      const end = MARGIN + frame.indent + indent - 6;
      if (label) {
        const font = layout.font(BODY);
        const x = end - layout.width(label, BODY);
        page.drawText(label, { x, y: baseline, size: BODY.size, font, color: rgb(...TEXT) });
      }
      if (options.checked === undefined) return;
      const side = size * 0.7;
      const x = end + 3;
      const color = rgb(...TEXT);
      page.drawRectangle({ x, y: baseline, width: side, height: side, borderWidth: 0.6, borderColor: color });
      if (options.checked) {
        const tick = [
          { x: x + side * 0.2, y: baseline + side * 0.5 },
          { x: x + side * 0.42, y: baseline + side * 0.2 },
          { x: x + side * 0.85, y: baseline + side * 0.85 },
        ];
        page.drawLine({ start: tick[0], end: tick[1], thickness: 0.9, color });
        page.drawLine({ start: tick[1], end: tick[2], thickness: 0.9, color });
      }
    });
    if (blocks.some((block) => block.object === 'block')) this.blocks(blocks, inner, options.depth ?? 0);
    else layout.paragraph([], inner);
  }

  private code(block: Extract<DocumentBlock, { type: 'code' }>, frame: Frame): void {
    const { layout } = this;
    if (block.data.title) {
      layout.paragraph([{ text: block.data.title, style: { ...CODE, bold: true, color: MUTED } }], frame);
    }
    const inner: Frame = {
      ...frame,
      indent: frame.indent + 8,
      right: 8,
      background: { x: frame.indent, color: CODE_BACKGROUND },
    };
    layout.gap(4, inner);
    for (const line of block.nodes) {
      layout.paragraph([{ text: expandTabs(inlineText(line.nodes)), style: CODE }], inner, {
        leading: 1.35,
        preserveIndent: true,
      });
    }
    layout.gap(4, inner);
  }

  /** A table as plain rows: the column titles in bold, then each row's cells separated by bars. */
  private table(table: DocumentBlockTable, frame: Frame): void {
    const { layout } = this;
    const { view, definition, records } = table.data;
    const columns = view.type === 'grid' ? view.columns : Object.keys(definition);
    const byName = new Map(table.fragments.map((f) => [f.fragment, f]));
    const cell = (value: unknown, style: TextStyle): Run[] => {
      const fragment = typeof value === 'string' ? byName.get(value) : undefined;
      if (fragment) return this.blocksInline(fragment.nodes, style);
      if (typeof value === 'string' || typeof value === 'number') return [{ text: String(value), style }];
      if (typeof value === 'boolean') return [{ text: value ? 'yes' : 'no', style }];
      return [];
    };
    const row = (cells: Run[][]): Run[] =>
      cells.flatMap((runs, index) => [
        ...(index > 0 ? [{ text: '  |  ', style: { ...BODY, color: RULE } }] : []),
        ...runs,
      ]);
    const bold = { ...BODY, bold: true };
    layout.paragraph(
      row(
        columns.map((id, index) => {
          const title = byName.get(`title-${index + 1}`);
          return title
            ? this.blocksInline(title.nodes, bold)
            : [{ text: definition[id]?.title ?? '', style: bold }];
        }),
      ),
      frame,
    );
    layout.rule(frame, RULE, 0.5);
    const rows = Object.values(records).sort((a, b) =>
      a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0,
    );
    for (const record of rows) {
      layout.gap(ITEM_GAP, frame);
      layout.paragraph(row(columns.map((id) => cell(record.values[id], BODY))), frame);
    }
  }

  /** Blocks as one run of inline text (a table cell), their texts separated by spaces. */
  private blocksInline(nodes: readonly DocumentNode[], style: TextStyle): Run[] {
    return nodes.flatMap((node, index) => {
      const children = childrenOf(node);
      const runs = children.some((child) => child.object !== 'block')
        ? this.runs(children, style)
        : this.blocksInline(children, style);
      return index > 0 ? [{ text: ' ', style }, ...runs] : runs;
    });
  }

  /** Inline content as styled runs. */
  private runs(nodes: readonly DocumentNode[], base: TextStyle): Run[] {
    return nodes.flatMap((node): Run[] => {
      if (isText(node)) {
        return node.leaves.map((leaf: Leaf) => ({
          text: leaf.markdown === 'soft-break' ? ' ' : leaf.text,
          style: marked(base, leaf.marks),
        }));
      }
      if (node.object !== 'inline') return [];
      switch (node.type) {
        case 'link': {
          const url =
            node.data.ref.kind === 'url' && isExternal(node.data.ref.url) ? node.data.ref.url : undefined;
          return this.runs(node.nodes, { ...base, color: LINK, ...(url ? { link: url } : {}) });
        }
        case 'inline-image':
          return [
            {
              text: `[${node.data.alt || node.data.caption || 'image'}]`,
              style: { ...base, italic: true, color: MUTED },
            },
          ];
        case 'annotation':
          this.notes.push({
            label: inlineText(node.nodes).trim() || 'Note',
            blocks: node.fragments.flatMap((fragment) => fragment.nodes),
          });
          return this.runs(node.nodes, base);
        case 'emoji':
          return [
            {
              text: String.fromCodePoint(...node.data.code.split('-').map((hex) => Number.parseInt(hex, 16))),
              style: base,
            },
          ];
        case 'inline-math':
          return [{ text: node.data.formula, style: { ...base, mono: true } }];
        case 'button':
          return [{ text: node.data.label, style: { ...base, bold: true } }];
        default:
          return this.runs(childrenOf(node), base);
      }
    });
  }
}

/** A frame inside `frame` with a bar on its left (quotes, hints). */
const barred = (frame: Frame, color: Color): Frame => ({
  ...frame,
  indent: frame.indent + QUOTE_INDENT,
  bars: [...frame.bars, { x: frame.indent + 2, width: 2.5, color }],
});

/** A text's style under a leaf's marks; color marks are not kept (they could be unreadable in print). */
function marked(base: TextStyle, marks: readonly DocumentTextMark[]): TextStyle {
  const style = { ...base };
  for (const { type } of marks) {
    if (type === 'bold') style.bold = true;
    else if (type === 'italic') style.italic = true;
    else if (type === 'strikethrough') style.strike = true;
    else if (type === 'code' || type === 'keyboard') style.mono = true;
    else if (type === 'superscript' || type === 'subscript') {
      style.size = base.size * 0.7;
      style.rise = base.size * (type === 'superscript' ? 0.35 : -0.15);
    }
  }
  return style;
}

const imageRun = (alt: string | undefined, caption: string): Run => {
  const parts = [alt, caption].filter((part): part is string => !!part && part.trim() !== '');
  const text = parts.length === 2 && parts[0] === parts[1] ? parts[0] : parts.join(' \u2014 ');
  return { text: text ? `Image: ${text}` : 'Image', style: { ...BODY, italic: true, color: MUTED } };
};

const linkRun = (url: string, base: TextStyle): Run => ({
  text: url,
  style: { ...base, color: LINK, ...(isExternal(url) ? { link: url } : {}) },
});

/** URLs a PDF viewer can open: relative ones (GitBook's page references) would go nowhere. */
const isExternal = (url: string) => /^(https?:|mailto:)/i.test(url);

const alignment = (data: unknown): 'left' | 'center' | 'right' => {
  const align = (data as { align?: string } | undefined)?.align;
  return align === 'center' || align === 'right' ? align : 'left';
};

/** Tabs to spaces, to the next multiple of 4 columns. */
function expandTabs(line: string): string {
  let out = '';
  for (const char of line) out += char === '\t' ? ' '.repeat(4 - (out.length % 4)) : char;
  return out;
}
