/**
 * What the conversion specs share: a document's nodes without keys, every key of a document, leaves and
 * paragraphs to compare with, and the round trip every construct must survive.
 */
import { schemaProblem } from '../../../test/support/openapi';
import { markdownToDocument } from './from-markdown';
import { gitbookDocument } from './gitbook-document';
import { normalizeMarkdown } from './markdown-syntax';
import { documentToMarkdown } from './to-markdown';

/** A value with its `key` fields left out (keys.spec.ts tests those). */
export const withoutKeys = (value: unknown) =>
  JSON.parse(JSON.stringify(value, (k, v) => (k === 'key' ? undefined : v)));

/** The nodes of the document Markdown reads as, without keys. */
export const nodesOf = (markdown: string) => withoutKeys(markdownToDocument(markdown).document.nodes);

/** Every key of a document (or of nodes), in document order. */
export function keysOf(value: unknown, keys: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) keysOf(item, keys);
  else if (value !== null && typeof value === 'object') {
    const node = value as { key?: string; nodes?: unknown; fragments?: unknown };
    if (node.key !== undefined) keys.push(node.key);
    keysOf(node.nodes, keys);
    keysOf(node.fragments, keys);
  }
  return keys;
}

/** A leaf of text with marks, given by type (`'bold'`) or whole (a color mark with its data). */
export const leaf = (text: string, marks: readonly (string | object)[] = [], extra: object = {}) => ({
  object: 'leaf',
  text,
  marks: marks.map((mark) => (typeof mark === 'string' ? { object: 'mark', type: mark } : mark)),
  ...extra,
});

export const paragraph = (...leaves: object[]) => ({
  object: 'block',
  type: 'paragraph',
  data: {},
  nodes: [{ object: 'text', leaves }],
});

/**
 * Markdown → document → Markdown → document: the same document (keys included), the Markdown written
 * reads back as itself, and GitBook's form of the document is valid under its schema, strictly, and
 * already in that form. With `canonical`, the Markdown written is also `normalizeMarkdown`'s form of
 * what was read (not so for HTML constructs, which are written in GitBook's form). Returns the Markdown
 * written.
 */
export function writtenBack(markdown: string, { canonical = false } = {}): string {
  const { document } = markdownToDocument(markdown);
  const out = documentToMarkdown(document);
  expect(markdownToDocument(out).document).toEqual(document);
  expect(documentToMarkdown(markdownToDocument(out).document)).toBe(out);
  if (canonical) expect(normalizeMarkdown(markdown)).toBe(out);
  const view = gitbookDocument(document);
  expect(schemaProblem('JSONDocument', view)).toBeUndefined();
  expect(gitbookDocument(view)).toEqual(view);
  return out;
}
