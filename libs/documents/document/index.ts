/** Markdown ↔ GitBook document conversion, and what search and link extraction read from a document. */
export * from './document';
export { type DocumentLink, documentLinks } from './document-links';
export { type DocumentHeading, documentHeadings, documentText } from './document-text';
export { type MarkdownDocument, markdownToDocument } from './from-markdown';
export type { Frontmatter } from './frontmatter';
export { gitbookDocument } from './gitbook-document';
export { normalizeMarkdown } from './markdown-syntax';
export { documentToMarkdown } from './to-markdown';
