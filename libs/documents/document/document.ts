/**
 * GitBook's JSON document model, as `@gitbook/api` types it (generated from its OpenAPI document), and
 * the few fields docs-hub adds so that a document keeps everything Markdown can express.
 *
 * Extensions live where GitBook's schema allows extra properties (those objects have no
 * `additionalProperties: false`):
 * - a leaf's `markdown`: `'html'` for inline HTML, `'soft-break'` for a soft line break (GitBook text has
 *   only one kind of line break, `\n` in a leaf, which is Markdown's hard break);
 * - a code block's `data.markdown: 'html'` for a block of raw HTML, and `data.meta` for the rest of a
 *   fence's info string after the language;
 * - a link's `data.title`;
 * - GitBook's Markdown dialect (dialect/liquid-blocks.ts): a `caption` fragment on an embed, a file, a
 *   content-ref or an OpenAPI block, and a file's ref of kind `url` (an asset path, not a stored file).
 * And one nesting GitBook's editor would not make: a blockquote or a footnote's annotation body holds
 * whatever Markdown put there (code, tables, quotes), rather than losing it.
 * API answers hold none of this: they go through `gitbookDocument` (gitbook-document.ts).
 */
import type {
  ContentRef,
  DocumentBlock,
  DocumentBlockCode,
  DocumentBlockHeading,
  DocumentBlocksTopLevels,
  DocumentFragment,
  DocumentInline,
  DocumentInlineLink,
  DocumentText,
  DocumentTextLeaf,
  DocumentTextMark,
  JSONDocument,
} from '@gitbook/api';

export type {
  ContentRef,
  DocumentBlock,
  DocumentBlockCode,
  DocumentBlockHeading,
  DocumentBlockImage,
  DocumentBlockImages,
  DocumentBlockListItem,
  DocumentBlockParagraph,
  DocumentBlocksTopLevels,
  DocumentBlockTable,
  DocumentFragment,
  DocumentInline,
  DocumentInlineAnnotation,
  DocumentInlineImage,
  DocumentInlineLink,
  DocumentTableDefinitionText,
  DocumentTableRecord,
  DocumentText,
  DocumentTextLeaf,
  DocumentTextMark,
} from '@gitbook/api';

/** A page's content: GitBook's JSON document (`{object: 'document', data, nodes}`). */
export type Document = JSONDocument;

/** Any node that can sit in a document, a block, an inline or a text. */
export type DocumentNode = DocumentBlock | DocumentInline | DocumentText;

/** What a block with inline content holds (paragraph, heading, link, …). */
export type InlineContent = DocumentText | DocumentInline;

/** The marks Markdown can write: GitBook's keyboard, color, superscript and subscript it cannot. */
export type MarkdownMark = 'bold' | 'italic' | 'strikethrough' | 'code';

/** A leaf with docs-hub's `markdown` extension (see the top of this file). */
export interface Leaf extends DocumentTextLeaf {
  markdown?: 'html' | 'soft-break';
}

export type CodeData = DocumentBlockCode['data'] & { markdown?: 'html'; meta?: string };
export type LinkData = DocumentInlineLink['data'] & { title?: string };

export type HeadingType = DocumentBlockHeading['type'];

/** Marks in the one order documents keep them in, so that equal texts are equal objects. */
export const MARK_ORDER: readonly MarkdownMark[] = ['bold', 'italic', 'strikethrough', 'code'];

export const mark = (type: MarkdownMark): DocumentTextMark => ({ object: 'mark', type });

export const leaf = (text: string, marks: DocumentTextMark[] = []): Leaf => ({ object: 'leaf', text, marks });

export const textNode = (leaves: Leaf[]): DocumentText => ({ object: 'text', leaves });

/** A container's children where GitBook's types list fewer kinds than Markdown can nest there. */
export const nested = <T>(nodes: DocumentBlock[]): T[] => nodes as unknown as T[];

export const topLevel = (nodes: DocumentBlock[]): DocumentBlocksTopLevels[] =>
  nested<DocumentBlocksTopLevels>(nodes);

export const isText = (node: { object: string }): node is DocumentText => node.object === 'text';

/** The fragments of a node, if its type has any (images, tables, annotations, expandables, …). */
export const fragmentsOf = (node: object): DocumentFragment[] =>
  'fragments' in node && Array.isArray(node.fragments) ? (node.fragments as DocumentFragment[]) : [];

/** The child nodes of a node, if its type has any. */
export const childrenOf = (node: object): DocumentNode[] =>
  'nodes' in node && Array.isArray(node.nodes) ? (node.nodes as DocumentNode[]) : [];

export const isUrlRef = (ref: ContentRef | undefined): ref is Extract<ContentRef, { kind: 'url' }> =>
  ref?.kind === 'url';
