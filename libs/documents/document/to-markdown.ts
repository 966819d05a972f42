/**
 * GitBook document to Markdown: each node becomes its mdast node, which the unified family writes
 * (markdown-syntax.ts). The inverse of from-markdown.ts for documents read from Markdown; GitBook's
 * other blocks keep their text (see README.md beside this file).
 */
import type {
  BlockContent,
  FootnoteDefinition,
  FootnoteReference,
  List,
  ListItem,
  PhrasingContent,
} from 'mdast';
import { documentToLiquid } from './dialect/liquid-blocks';
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

/** A run of inline content to group by marks: a leaf, or an inline with the marks all its text has. */
interface Atom {
  marks: ReadonlySet<MarkdownMark>;
  /** Links may hold a mark themselves (`[*a*](u)`) rather than sit in it (`*[a](u)*`). */
  link: boolean;
  write: (open: ReadonlySet<MarkdownMark>) => PhrasingContent[];
}

const NODE_OF_MARK = { bold: 'strong', italic: 'emphasis', strikethrough: 'delete' } as const;
/** The marks Markdown writes as nodes around text (code is a node of its own, always innermost). */
const NESTED_MARKS = Object.keys(NODE_OF_MARK) as (keyof typeof NODE_OF_MARK)[];

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
          return [this.list(node.type === 'list-ordered' ? (node.data.start ?? 1) : null, node.nodes)];
        case 'code': {
          const data = node.data as CodeData;
          const value = node.nodes.map((line) => inlineText(line.nodes)).join('\n');
          if (data.markdown === 'html') return [{ type: 'html', value }];
          return [{ type: 'code', lang: data.syntax ?? null, meta: data.meta ?? null, value }];
        }
        case 'images':
          return node.nodes.map((image) => ({ type: 'paragraph', children: [imageOf(image)] }));
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

  private list(start: number | null, items: readonly DocumentNode[]): List {
    return {
      type: 'list',
      ordered: start !== null,
      start,
      // Documents have no loose lists; markdown-syntax.ts spreads the items that must be.
      spread: false,
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

  private group(atoms: readonly Atom[], open: ReadonlySet<MarkdownMark>): PhrasingContent[] {
    const out: PhrasingContent[] = [];
    for (let i = 0; i < atoms.length; ) {
      const atom = atoms[i];
      let best: Exclude<MarkdownMark, 'code'> | undefined;
      let bestRun = 0;
      for (const m of NESTED_MARKS) {
        if (!atom.marks.has(m) || open.has(m)) continue;
        let run = 1;
        while (i + run < atoms.length && atoms[i + run].marks.has(m)) run++;
        if (run > bestRun) [best, bestRun] = [m, run];
      }
      if (best === undefined || (bestRun === 1 && atom.link)) {
        out.push(...atom.write(open));
        i++;
        continue;
      }
      const inner = new Set(open).add(best);
      out.push({ type: NODE_OF_MARK[best], children: this.group(atoms.slice(i, i + bestRun), inner) });
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
        case 'link': {
          const inner = this.atoms(node.nodes);
          const data = node.data as LinkData;
          const write = (open: ReadonlySet<MarkdownMark>): PhrasingContent[] => [
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

const marksOf = (l: Leaf): Set<MarkdownMark> =>
  new Set(
    l.marks
      .map((m) => m.type)
      .filter((type): type is MarkdownMark => MARK_ORDER.includes(type as MarkdownMark)),
  );

/** The marks every atom has: those an inline can sit in. */
function common(atoms: readonly Atom[]): Set<MarkdownMark> {
  if (atoms.length === 0) return new Set();
  return new Set([...atoms[0].marks].filter((m) => m !== 'code' && atoms.every((a) => a.marks.has(m))));
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
