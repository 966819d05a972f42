/**
 * Markdown to GitBook document. The Markdown is read into mdast by the unified family
 * (markdown-syntax.ts), then each mdast node becomes its GitBook node; the mapping is documented in
 * README.md beside this file.
 */

import { invalid } from '@app/platform/domain/decider';
import type { DocumentBlockExpandable } from '@gitbook/api';
import type {
  Definition,
  FootnoteDefinition,
  FootnoteReference,
  List,
  Nodes,
  PhrasingContent,
  Root,
  RootContent,
  Yaml,
} from 'mdast';
import { type Details, type Figure, figureOf, pairDetails } from './dialect/html-blocks';
import { type ButtonLink, type ColorData, type ColorSpan, pairInlineHtml } from './dialect/html-inline';
import { liquidBlockToDocument } from './dialect/liquid-blocks';
import { inlineMath, loneFormula, mathBlock } from './dialect/math';
import {
  type CodeData,
  type Document,
  type DocumentBlock,
  type DocumentBlockImages,
  type DocumentBlockListItem,
  type DocumentBlockParagraph,
  type DocumentInline,
  type DocumentInlineAnnotation,
  type DocumentInlineImage,
  type DocumentInlineLink,
  type DocumentTextMark,
  type InlineContent,
  type Leaf,
  type LinkData,
  leaf,
  MARK_ORDER,
  type MarkdownMark,
  mark,
  nested,
  textNode,
  topLevel,
} from './document';
import { type Frontmatter, readFrontmatter } from './frontmatter';
import { withKeys } from './keys';
import { parseMarkdown } from './markdown-syntax';
import { tableToBlock } from './table';

/**
 * Footnote bodies expanded at most, over a document: each reference expands its definition, and a
 * definition citing others expands theirs, so a few definitions citing each other twice would grow
 * the document exponentially. A page has a few dozen.
 */
export const MAX_FOOTNOTE_EXPANSIONS = 10_000;

export interface MarkdownDocument {
  document: Document;
  frontmatter: Frontmatter;
}

export function markdownToDocument(markdown: string): MarkdownDocument {
  return fromRoot(parseMarkdown(markdown));
}

function fromRoot(root: Root): MarkdownDocument {
  const frontmatter = readFrontmatter(root.children.find((node): node is Yaml => node.type === 'yaml'));
  const nodes = new Reader(root).blocks(root.children, true);
  return { document: withKeys({ object: 'document', data: {}, nodes: topLevel(nodes) }), frontmatter };
}

/**
 * One line of words, digits, single spaces and punctuation that starts and makes no construct in
 * this dialect: no list marker first (`1.`), no `www.` (GFM reads it as a link), nothing of `*_`[]<>&\~|$%{}#:/@`
 * beyond the `:` of a sentence (a scheme needs `/`). Markdown reads such a line as a paragraph of itself.
 */
const PLAIN_LINE = /^[\p{L}\p{N}](?:[\p{L}\p{N},.;:!?'"()-]| (?! |$))*$/u;
const PLAIN_MAX_CHARS = 2000;

/**
 * The document of Markdown that is plain text (`PLAIN_LINE`), read without the parser: what
 * `markdownToDocument` makes of it, for a fraction of the work (a one-sentence comment is most of
 * what reviewers write). Undefined for anything else.
 */
/**
 * What the writer (`documentToMarkdown`) makes of the document of a plain line: the line itself, unless
 * it holds a `w.` that the writer escapes (GFM's `www.` autolinks); then undefined, for the writer to say.
 */
export function plainTextMarkdown(line: string): string | undefined {
  return /[Ww]\./.test(line) ? undefined : `${line}\n`;
}

export function plainTextDocument(markdown: string): MarkdownDocument | undefined {
  if (markdown.length > PLAIN_MAX_CHARS || !PLAIN_LINE.test(markdown)) return undefined;
  if (/^\d+[.)]/.test(markdown) || /www\./i.test(markdown)) return undefined;
  return fromRoot({
    type: 'root',
    children: [{ type: 'paragraph', children: [{ type: 'text', value: markdown }] }],
  });
}

type Item = Leaf | DocumentInline;

const MARK_OF: Partial<Record<Nodes['type'], MarkdownMark>> = {
  strong: 'bold',
  emphasis: 'italic',
  delete: 'strikethrough',
};

class Reader {
  /** Link reference definitions and footnote definitions, by identifier (the first one wins). */
  private readonly definitions = new Map<string, Definition>();
  private readonly footnotes = new Map<string, FootnoteDefinition>();
  /** Footnotes being expanded, so that a footnote citing itself does not recurse. */
  private readonly expanding = new Set<string>();
  private expansions = 0;

  constructor(root: Root) {
    const collect = (node: Nodes): void => {
      if (node.type === 'definition' && !this.definitions.has(node.identifier)) {
        this.definitions.set(node.identifier, node);
      }
      if (node.type === 'footnoteDefinition' && !this.footnotes.has(node.identifier)) {
        this.footnotes.set(node.identifier, node);
      }
      if ('children' in node) node.children.forEach(collect);
    };
    collect(root);
  }

  /**
   * Blocks for flow content; `top`: where GitBook has image blocks (directly in the document, in an
   * expandable's body).
   */
  blocks(children: readonly RootContent[], top = false): DocumentBlock[] {
    // GitBook's dialect: expandables paired among the siblings (dialect/html-blocks.ts).
    return pairDetails(children).flatMap((node): DocumentBlock[] => {
      switch (node.type) {
        // GitBook's dialect (dialect/).
        case 'liquidBlock':
          return [liquidBlockToDocument(node, this)];
        case 'details':
          return [this.expandable(node)];
        case 'math':
          return [mathBlock(node.value, node.meta)];
        case 'paragraph': {
          const formula = loneFormula(node);
          if (formula !== undefined) return [mathBlock(formula)];
          const [only] = node.children;
          if (
            top &&
            node.children.length === 1 &&
            (only.type === 'image' || only.type === 'imageReference')
          ) {
            return [this.imageBlock(only)];
          }
          return [this.paragraph(node.children)];
        }
        case 'heading':
          // GitBook has three levels: 4 to 6 become 3, the nearest.
          return [
            {
              object: 'block',
              type: `heading-${Math.min(node.depth, 3) as 1 | 2 | 3}`,
              data: {},
              nodes: this.inline(node.children),
            },
          ];
        case 'thematicBreak':
          return [{ object: 'block', type: 'divider', isVoid: true, data: {} }];
        case 'blockquote':
          return [
            { object: 'block', type: 'blockquote', data: {}, nodes: nested(this.blocks(node.children)) },
          ];
        case 'list':
          return [this.list(node)];
        case 'code': {
          const data: CodeData = {};
          if (node.lang) data.syntax = node.lang;
          if (node.meta) data.meta = node.meta;
          return [codeBlock(data, node.value)];
        }
        case 'html': {
          // GitBook's figure is its image block; other raw HTML shows as HTML source in GitBook, and
          // is written back as raw HTML.
          const figure = top ? figureOf(node.value) : undefined;
          if (figure) return [this.figure(figure)];
          return [codeBlock({ syntax: 'html', markdown: 'html' }, node.value)];
        }
        case 'table':
          return [tableToBlock(node, (cell) => this.paragraph(cell))];
        default:
          // Definitions are resolved where they are used; frontmatter is returned apart.
          return [];
      }
    });
  }

  paragraph(children: PhrasingContent[]): DocumentBlockParagraph {
    return { object: 'block', type: 'paragraph', data: {}, nodes: this.inline(children) };
  }

  /** `<details>` + `<summary>` around Markdown: GitBook's expandable, title and body fragments. */
  private expandable(details: Details): DocumentBlock {
    const expandable: DocumentBlockExpandable = {
      object: 'block',
      type: 'expandable',
      isVoid: true,
      data: details.open ? { defaultExpanded: true } : {},
      fragments: [
        {
          object: 'fragment',
          fragment: 'expandable-title',
          type: 'expandable-title',
          nodes: [this.paragraph(details.summary)],
        },
        {
          object: 'fragment',
          fragment: 'expandable-body',
          type: 'expandable-body',
          nodes: nested(this.blocks(details.children as RootContent[], true)),
        },
      ],
    };
    return expandable as DocumentBlock;
  }

  /** GitBook's `<figure>`: an image block, its `<figcaption>` the caption (`data.markdown: 'figure'`). */
  private figure(figure: Figure): DocumentBlockImages {
    return {
      object: 'block',
      type: 'images',
      isVoid: false,
      data: { markdown: 'figure' } as DocumentBlockImages['data'],
      nodes: [
        {
          object: 'block',
          type: 'image',
          isVoid: true,
          data: {
            ref: { kind: 'url', url: figure.url },
            ...(figure.alt ? { alt: figure.alt } : {}),
            ...(figure.width === undefined ? {} : { width: figure.width }),
            ...(figure.height === undefined ? {} : { height: figure.height }),
          },
          fragments: figure.caption?.length
            ? [{ object: 'fragment', fragment: 'caption', nodes: [this.paragraph(figure.caption)] }]
            : [],
        },
      ],
    };
  }

  private list(list: List): DocumentBlock {
    const nodes = list.children.map(
      (item): DocumentBlockListItem => ({
        object: 'block',
        type: 'list-item',
        data: typeof item.checked === 'boolean' ? { checked: item.checked } : {},
        nodes: nested(this.blocks(item.children)),
      }),
    );
    // A loose list (blank lines between items) keeps it: `data.spread` (extension).
    const spread = list.spread ? { spread: true } : {};
    if (list.ordered) {
      const start = list.start ?? 1;
      return {
        object: 'block',
        type: 'list-ordered',
        data: { ...(start === 1 ? {} : { start }), ...spread },
        nodes,
      };
    }
    const tasks = list.children.some((item) => typeof item.checked === 'boolean');
    return { object: 'block', type: tasks ? 'list-tasks' : 'list-unordered', data: spread, nodes };
  }

  private imageBlock(
    image: Extract<PhrasingContent, { type: 'image' | 'imageReference' }>,
  ): DocumentBlockImages {
    const { url, title } = this.target(image);
    return {
      object: 'block',
      type: 'images',
      isVoid: false,
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'image',
          isVoid: true,
          data: { ref: { kind: 'url', url }, ...(image.alt ? { alt: image.alt } : {}) },
          // Markdown's image title is the closest thing to GitBook's caption.
          fragments: title
            ? [
                {
                  object: 'fragment',
                  fragment: 'caption',
                  nodes: [captionParagraph(title)],
                },
              ]
            : [],
        },
      ],
    };
  }

  /** Inline content in GitBook's normal form: texts around and between inlines, equal leaves merged. */
  inline(children: PhrasingContent[], marks: MarkdownMark[] = [], color?: ColorData): InlineContent[] {
    const nodes: InlineContent[] = [];
    let leaves: Leaf[] = [];
    const flush = () => {
      nodes.push(textNode(leaves.length > 0 ? leaves : [leaf('')]));
      leaves = [];
    };
    for (const item of this.items(children, marks, color)) {
      if (item.object !== 'leaf') {
        flush();
        nodes.push(item);
        continue;
      }
      const last = leaves.at(-1);
      if (last && mergeable(last, item)) last.text += item.text;
      else if (item.text !== '' || item.markdown) leaves.push(item);
    }
    flush();
    return nodes;
  }

  /**
   * Leaves and inlines of phrasing content, each leaf carrying the marks of the nodes around it (and
   * the color of GitBook's `<mark>` around it).
   */
  private items(children: readonly PhrasingContent[], marks: MarkdownMark[], color?: ColorData): Item[] {
    const marked = (text: string, extra?: MarkdownMark): Leaf =>
      leaf(text, [...withMark(marks, extra).map(mark), ...(color ? [colorMark(color)] : [])]);
    return pairInlineHtml(children).flatMap((node): Item[] => {
      const markType = MARK_OF[node.type as keyof typeof MARK_OF];
      if (markType && 'children' in node)
        return this.items(node.children as PhrasingContent[], withMark(marks, markType), color);
      switch (node.type) {
        case 'colorSpan':
          return this.items(node.children as PhrasingContent[], marks, withColor(color, node));
        case 'buttonLink':
          return [buttonInline(node)];
        case 'inlineMath':
          return [inlineMath(node.value)];
        case 'text':
          // A newline in text is a soft line break, which GitBook text cannot tell from a hard one.
          return node.value
            .split('\n')
            .flatMap((part, i) => [
              ...(i > 0 ? [{ ...marked('\n'), markdown: 'soft-break' as const }] : []),
              marked(part),
            ]);
        case 'inlineCode':
          return [marked(node.value, 'code')];
        case 'break':
          return [marked('\n')];
        case 'html':
          return [{ ...marked(node.value), markdown: 'html' }];
        case 'link':
        case 'linkReference':
          return [this.link(node, marks, color)];
        case 'image':
        case 'imageReference':
          return [this.inlineImage(node)];
        case 'footnoteReference':
          return [this.annotation(node, marks, color)];
        default:
          return [];
      }
    });
  }

  private link(
    node: Extract<PhrasingContent, { type: 'link' | 'linkReference' }>,
    marks: MarkdownMark[],
    color?: ColorData,
  ): DocumentInlineLink {
    const { url, title } = this.target(node);
    const data: LinkData = { ref: { kind: 'url', url } };
    if (title) data.title = title;
    return {
      object: 'inline',
      type: 'link',
      data,
      nodes: this.inline(node.children, marks, color) as DocumentInlineLink['nodes'],
    };
  }

  private inlineImage(
    node: Extract<PhrasingContent, { type: 'image' | 'imageReference' }>,
  ): DocumentInlineImage {
    const { url, title } = this.target(node);
    return {
      object: 'inline',
      type: 'inline-image',
      isVoid: true,
      data: {
        ref: { kind: 'url', url },
        ...(node.alt ? { alt: node.alt } : {}),
        ...(title ? { caption: title } : {}),
      },
    };
  }

  /** A footnote is GitBook's annotation: its label is the annotated text, its definition the body. */
  private annotation(node: FootnoteReference, marks: MarkdownMark[], color?: ColorData): Item {
    const label = node.label ?? node.identifier;
    const definition = this.footnotes.get(node.identifier);
    const leafMarks = [...marks.map(mark), ...(color ? [colorMark(color)] : [])];
    if (!definition || this.expanding.has(node.identifier)) return leaf(`[^${label}]`, leafMarks);
    if (++this.expansions > MAX_FOOTNOTE_EXPANSIONS)
      throw invalid(`footnotes expand to more than ${MAX_FOOTNOTE_EXPANSIONS} annotations`);
    this.expanding.add(node.identifier);
    const body = this.blocks(definition.children);
    this.expanding.delete(node.identifier);
    const annotation: DocumentInlineAnnotation = {
      object: 'inline',
      type: 'annotation',
      isVoid: false,
      data: {},
      nodes: [textNode([leaf(label, leafMarks)])],
      fragments: [{ object: 'fragment', type: 'annotation-body', nodes: nested(body) }],
    };
    return annotation;
  }

  /** The URL and title of a link or image, through its definition for a reference. */
  private target(node: { type: string; url?: string; title?: string | null; identifier?: string }): {
    url: string;
    title: string | null | undefined;
  } {
    if (node.url !== undefined) return { url: node.url, title: node.title };
    const definition = node.identifier === undefined ? undefined : this.definitions.get(node.identifier);
    return { url: definition?.url ?? '', title: definition?.title };
  }
}

/** The title as it is, a newline in it included (read as Markdown, it would be a soft break). */
const captionParagraph = (title: string): DocumentBlockParagraph => ({
  object: 'block',
  type: 'paragraph',
  data: {},
  nodes: [textNode([leaf(title)])],
});

function codeBlock(data: CodeData, value: string): DocumentBlock {
  return {
    object: 'block',
    type: 'code',
    data,
    nodes: value.split('\n').map((line) => ({
      object: 'block',
      type: 'code-line',
      data: {},
      nodes: [textNode([leaf(line)])],
    })),
  };
}

const withMark = (marks: MarkdownMark[], extra?: MarkdownMark): MarkdownMark[] =>
  extra && !marks.includes(extra) ? MARK_ORDER.filter((m) => m === extra || marks.includes(m)) : marks;

/** Adjacent plain leaves with the same marks are one leaf; HTML and soft breaks stay apart. */
const mergeable = (a: Leaf, b: Leaf): boolean =>
  !a.markdown && !b.markdown && JSON.stringify(a.marks) === JSON.stringify(b.marks);

/** GitBook's color mark: both colors, `default` where the `<mark>` sets none. */
const colorMark = (color: ColorData): DocumentTextMark => ({ object: 'mark', type: 'color', data: color });

/** GitBook's `default` color (its `DocumentTextColor` enumeration names it). */
const DEFAULT_COLOR = 'default' as ColorData['text'];

/** The colors of a `<mark>` inside another: what it sets over what the outer one does. */
const withColor = (outer: ColorData | undefined, span: ColorSpan): ColorData => ({
  text: span.color.text ?? outer?.text ?? DEFAULT_COLOR,
  background: span.color.background ?? outer?.background ?? DEFAULT_COLOR,
});

const buttonInline = (button: ButtonLink): DocumentInline =>
  ({ object: 'inline', type: 'button', isVoid: true, data: button.data }) as DocumentInline;
