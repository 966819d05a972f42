/**
 * GitBook document to Markdown: each node becomes its mdast node, which the unified family writes
 * (markdown-syntax.ts). The inverse of from-markdown.ts for documents read from Markdown; GitBook's
 * other blocks keep their text (see README.md beside this file).
 */

import type { DocumentBlockExpandable, DocumentInlineButton } from '@gitbook/api';
import type {
  BlockContent,
  FootnoteDefinition,
  FootnoteReference,
  List,
  ListItem,
  PhrasingContent,
} from 'mdast';
import { DETAILS_END, detailsStartHtml, figureHtml, hasSize } from './dialect/html-blocks';
import { buttonPhrasing, type ColorData, MARK_END, markStartTag } from './dialect/html-inline';
import { documentToLiquid } from './dialect/liquid-blocks';
import { inlineMathNode, type MathData, mathNode } from './dialect/math';
import {
  type CodeData,
  type ContentRef,
  childrenOf,
  type Document,
  type DocumentBlockImage,
  type DocumentInlineAnnotation,
  type DocumentNode,
  fragmentsOf,
  type InlineContent,
  isText,
  type Leaf,
  type LinkData,
  MARK_ORDER,
  type MarkdownMark,
} from './document';
import { inlineText } from './document-text';
import { type Frontmatter, writeFrontmatter } from './frontmatter';
import { serializeMarkdown } from './markdown-syntax';
import { blockToTable } from './table';

export function documentToMarkdown(document: Document, frontmatter: Frontmatter = {}): string {
  const writer = new Writer();
  const children = writer.flow(document.nodes as DocumentNode[]);
  const yaml = writeFrontmatter(frontmatter);
  return serializeMarkdown({
    type: 'root',
    children: [...(yaml ? [yaml] : []), ...children, ...writer.footnotes],
  });
}

/**
 * A mark as the writer groups it: Markdown's (`bold`, …) or a color mark (`color:<text>:<background>`,
 * written as GitBook's `<mark style>`).
 */
type MarkKey = MarkdownMark | `color:${string}`;

/** A run of inline content to group by marks: a leaf, or an inline with the marks all its text has. */
interface Atom {
  marks: ReadonlySet<MarkKey>;
  /** Links may hold a mark themselves (`[*a*](u)`) rather than sit in it (`*[a](u)*`). */
  link: boolean;
  /** An inline GitBook gives no marks (math, a button): it sits in the marks around it, if any. */
  any?: boolean;
  write: (open: ReadonlySet<MarkKey>) => PhrasingContent[];
}

const NODE_OF_MARK = { bold: 'strong', italic: 'emphasis', strikethrough: 'delete' } as const;

class Writer {
  readonly refUrl = refUrl;
  /** Footnote definitions, in the order of their first reference, written after the content. */
  readonly footnotes: FootnoteDefinition[] = [];
  private readonly footnoteBodies = new Map<string, string>();

  flow(nodes: readonly DocumentNode[]): BlockContent[] {
    return nodes.flatMap((node): BlockContent[] => {
      if (node.object !== 'block') return [];
      // GitBook's dialect (dialect/): its blocks written as its Markdown writes them.
      const dialect = documentToLiquid(node, this);
      if (dialect) return dialect;
      switch (node.type) {
        case 'paragraph':
          return [{ type: 'paragraph', children: this.phrasing(node.nodes) }];
        case 'heading-1':
        case 'heading-2':
        case 'heading-3':
          return [
            {
              type: 'heading',
              depth: Number(node.type.slice(-1)) as 1 | 2 | 3,
              children: this.phrasing(node.nodes),
            },
          ];
        case 'divider':
          return [{ type: 'thematicBreak' }];
        case 'blockquote':
          return [{ type: 'blockquote', children: this.flow(node.nodes) }];
        case 'list-ordered':
        case 'list-unordered':
        case 'list-tasks':
          return [
            this.list(
              node.type === 'list-ordered' ? (node.data.start ?? 1) : null,
              node.nodes,
              (node.data as { spread?: boolean }).spread === true,
            ),
          ];
        case 'code': {
          const data = node.data as CodeData;
          const value = node.nodes.map((line) => inlineText(line.nodes)).join('\n');
          if (data.markdown === 'html') return [{ type: 'html', value }];
          return [{ type: 'code', lang: data.syntax ?? null, meta: data.meta ?? null, value }];
        }
        case 'images':
          return node.nodes.map((image) => this.image(image, node.data));
        case 'math':
          return [mathNode(node.data as MathData)];
        case 'expandable':
          return this.expandable(node);
        case 'image':
          return [{ type: 'paragraph', children: [imageOf(node)] }];
        case 'table':
          return [blockToTable(node, (cell) => this.phrasing(cell))];
        default:
          // GitBook blocks Markdown has no syntax for keep their content.
          return [...this.flow(childrenOf(node)), ...fragmentsOf(node).flatMap((f) => this.flow(f.nodes))];
      }
    });
  }

  /**
   * GitBook's `<figure>` for an image read from one (`data.markdown: 'figure'`), one with a width or a
   * height, or one whose caption Markdown's image title cannot hold (formatting, links, a blank line);
   * `![alt](url "caption")` otherwise, a line break in the caption included (an image title may span
   * lines, and is read back so).
   */
  private image(image: DocumentBlockImage, data: object): BlockContent {
    const caption = fragmentsOf(image)
      .filter((f) => f.fragment === 'caption')
      .flatMap((f) => f.nodes.flatMap(childrenOf));
    const phrasing = this.phrasing(caption);
    const plain =
      phrasing.every((node) => node.type === 'text' || node.type === 'break') &&
      !/\n[ \t]*\n/.test(inlineText(caption));
    if ((data as { markdown?: string }).markdown !== 'figure' && plain && !hasSize(image.data))
      return { type: 'paragraph', children: [imageOf(image)] };
    return figureHtml(refUrl(image.data.ref), image.data.alt ?? '', phrasing, image.data);
  }

  /** GitBook's `<details>`: its summary and body, each apart. */
  private expandable(node: DocumentBlockExpandable): BlockContent[] {
    const fragment = (name: string) => node.fragments.find((f) => f.fragment === name)?.nodes ?? [];
    const title = (fragment('expandable-title') as DocumentNode[]).flatMap(childrenOf);
    return [
      ...detailsStartHtml(node.data.defaultExpanded === true, this.phrasing(title)),
      ...this.flow(fragment('expandable-body') as DocumentNode[]),
      DETAILS_END,
    ];
  }

  private list(start: number | null, items: readonly DocumentNode[], loose: boolean): List {
    return {
      type: 'list',
      ordered: start !== null,
      start,
      // A tight list's items are written tight, bar those markdown-syntax.ts spreads as they must be.
      spread: loose,
      children: items.map(
        (item): ListItem => ({
          type: 'listItem',
          spread: false,
          checked: (item as { data?: { checked?: boolean } }).data?.checked ?? null,
          children: this.flow(childrenOf(item)),
        }),
      ),
    };
  }

  /**
   * Leaves carry marks; Markdown nests them. At each atom, the mark that runs over the most atoms opens
   * first, which rebuilds the nesting Markdown had, bar two marks over the same text (strongest
   * outside) and a mark over exactly one link (kept inside the link).
   */
  phrasing(nodes: readonly DocumentNode[]): PhrasingContent[] {
    return this.group(this.atoms(nodes), new Set());
  }

  private group(atoms: readonly Atom[], open: ReadonlySet<MarkKey>): PhrasingContent[] {
    const out: PhrasingContent[] = [];
    for (let i = 0; i < atoms.length; ) {
      const atom = atoms[i];
      let best: Exclude<MarkKey, 'code'> | undefined;
      let bestRun = 0;
      // Code is a node of its own, always innermost; the others nest (in the order marksOf gives).
      for (const m of atom.marks) {
        if (m === 'code' || open.has(m)) continue;
        let run = 1;
        while (i + run < atoms.length && (atoms[i + run].marks.has(m) || atoms[i + run].any)) run++;
        while (atoms[i + run - 1].any) run--;
        if (run > bestRun) [best, bestRun] = [m, run];
      }
      if (best === undefined || (bestRun === 1 && atom.link)) {
        out.push(...atom.write(open));
        i++;
        continue;
      }
      const inner = new Set(open).add(best);
      const children = this.group(atoms.slice(i, i + bestRun), inner);
      if (best in NODE_OF_MARK) out.push({ type: NODE_OF_MARK[best as keyof typeof NODE_OF_MARK], children });
      else
        out.push({ type: 'html', value: markStartTag(colorOf(best)) }, ...children, {
          type: 'html',
          value: MARK_END,
        });
      i += bestRun;
    }
    return mergeTexts(out);
  }

  private atoms(nodes: readonly DocumentNode[]): Atom[] {
    return nodes.flatMap((node): Atom[] => {
      if (isText(node)) {
        return node.leaves
          .filter((l: Leaf) => l.text !== '' || l.markdown)
          .map((l: Leaf) => ({ marks: marksOf(l), link: false, write: () => leafPhrasing(l) }));
      }
      if (node.object !== 'inline') return [];
      switch (node.type) {
        case 'inline-math': {
          const formula = node.data.formula;
          return [{ marks: new Set(), link: false, any: true, write: () => [inlineMathNode(formula)] }];
        }
        case 'button': {
          const data = node.data as DocumentInlineButton['data'];
          const write = (): PhrasingContent[] =>
            'ref' in data && data.ref
              ? buttonPhrasing(data, refUrl(data.ref))
              : [{ type: 'text', value: data.label }];
          return [{ marks: new Set(), link: false, any: true, write }];
        }
        case 'link': {
          const inner = this.atoms(node.nodes);
          const data = node.data as LinkData;
          const write = (open: ReadonlySet<MarkKey>): PhrasingContent[] => [
            {
              type: 'link',
              url: refUrl(data.ref),
              title: data.title ?? null,
              children: this.group(inner, open),
            },
          ];
          return [{ marks: common(inner), link: true, write }];
        }
        case 'inline-image':
          return [{ marks: new Set(), link: false, write: () => [imageOf(node)] }];
        case 'annotation':
          return [{ marks: common(this.atoms(node.nodes)), link: false, write: () => [this.footnote(node)] }];
        case 'emoji': {
          const text = String.fromCodePoint(
            ...node.data.code.split('-').map((hex) => Number.parseInt(hex, 16)),
          );
          return [{ marks: new Set(), link: false, write: () => [{ type: 'text', value: text }] }];
        }
        default:
          return this.atoms(childrenOf(node));
      }
    });
  }

  /** A reference to a footnote whose definition is the annotation's body; equal labels share one. */
  private footnote(annotation: DocumentInlineAnnotation): FootnoteReference {
    const children = this.flow(annotation.fragments.flatMap((f) => f.nodes));
    const body = JSON.stringify(children);
    const text = inlineText(annotation.nodes).trim() || 'note';
    let label = text;
    for (let n = 2; this.footnoteBodies.has(identifier(label)); n++) {
      if (this.footnoteBodies.get(identifier(label)) === body) break;
      label = `${text}-${n}`;
    }
    if (!this.footnoteBodies.has(identifier(label))) {
      this.footnoteBodies.set(identifier(label), body);
      this.footnotes.push({ type: 'footnoteDefinition', identifier: identifier(label), label, children });
    }
    return { type: 'footnoteReference', identifier: identifier(label), label };
  }
}

/** Markdown's label matching: case-insensitive, whitespace collapsed. */
const identifier = (label: string) => label.replace(/\s+/g, ' ').trim().toLowerCase();

/** A leaf's marks Markdown can write, Markdown's in MARK_ORDER, then its color. */
const marksOf = (l: Leaf): Set<MarkKey> => {
  const keys = new Set<MarkKey>(MARK_ORDER.filter((m) => l.marks.some((mark) => mark.type === m)));
  const color = l.marks.find((mark) => mark.type === 'color');
  if (color && 'data' in color) keys.add(`color:${color.data.text}:${color.data.background}`);
  return keys;
};

const colorOf = (key: string): ColorData => {
  const [, text, background] = key.split(':');
  return { text, background } as ColorData;
};

/** The marks every atom has: those an inline can sit in. */
function common(atoms: readonly Atom[]): Set<MarkKey> {
  const marked = atoms.filter((a) => !a.any);
  if (marked.length === 0) return new Set();
  return new Set([...marked[0].marks].filter((m) => m !== 'code' && marked.every((a) => a.marks.has(m))));
}

function leafPhrasing(l: Leaf): PhrasingContent[] {
  if (l.markdown === 'html') return [{ type: 'html', value: l.text }];
  if (l.markdown === 'soft-break') return [{ type: 'text', value: '\n' }];
  if (l.marks.some((m) => m.type === 'code')) return [{ type: 'inlineCode', value: l.text }];
  // A newline in GitBook text is a line break.
  return l.text
    .split('\n')
    .flatMap((part, i): PhrasingContent[] => [
      ...(i > 0 ? [{ type: 'break' } as const] : []),
      ...(part ? [{ type: 'text', value: part } as const] : []),
    ]);
}

function mergeTexts(nodes: PhrasingContent[]): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  for (const node of nodes) {
    const last = out.at(-1);
    if (node.type === 'text' && last?.type === 'text')
      out[out.length - 1] = { ...last, value: last.value + node.value };
    else out.push(node);
  }
  return out;
}

function imageOf(
  image: DocumentBlockImage | Extract<InlineContent, { type: 'inline-image' }>,
): PhrasingContent {
  const title =
    image.type === 'image'
      ? fragmentsOf(image)
          .filter((f) => f.fragment === 'caption')
          .map((f) => inlineText(f.nodes.flatMap(childrenOf)))
          .join('')
      : image.data.caption;
  return { type: 'image', url: refUrl(image.data.ref), title: title || null, alt: image.data.alt ?? null };
}

/** A URL for a reference: GitBook's own references as its Markdown writes them (`/pages/<id>`). */
function refUrl(ref: ContentRef): string {
  switch (ref.kind) {
    case 'url':
      return ref.url;
    case 'page':
      return `/pages/${ref.page}`;
    case 'anchor':
      return ref.page ? `/pages/${ref.page}#${ref.anchor}` : `#${ref.anchor}`;
    case 'file':
      return `/files/${ref.file}`;
    default:
      return '';
  }
}
