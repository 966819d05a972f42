import { invalid } from '@app/platform/domain/decider';
import { type Document, type Frontmatter, markdownToDocument } from '../document';
import { checkDocument } from '../document/check-document';
import { inlineText } from '../document/document-text';
import { isRecord, named } from './check';

/** The largest page body a change may carry, as Markdown or as JSON. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** A change's `document` (GitBook's Document): Markdown, a JSON document, or `{}` for an empty page. */
export type PageBody =
  | { kind: 'markdown'; document: Document; frontmatter: Frontmatter }
  | { kind: 'json'; document: Document }
  | { kind: 'empty' };

export function readBody(input: unknown, path: string): PageBody {
  if (!isRecord(input)) throw invalid(`${path}: must be {markdown}, {document} or {}`);
  const keys = Object.keys(input);
  if (keys.length === 0) return { kind: 'empty' };
  if (keys.length === 1 && typeof input.markdown === 'string') {
    if (Buffer.byteLength(input.markdown) > MAX_BODY_BYTES)
      throw invalid(`${path}.markdown: is larger than 1 MiB`);
    try {
      return { kind: 'markdown', ...markdownToDocument(input.markdown) };
    } catch (error) {
      throw named(error, `${path}.markdown`);
    }
  }
  if (keys.length === 1 && 'document' in input) {
    if (Buffer.byteLength(JSON.stringify(input.document)) > MAX_BODY_BYTES)
      throw invalid(`${path}.document: is larger than 1 MiB`);
    return { kind: 'json', document: checkDocument(input.document, `${path}.document`) };
  }
  throw invalid(`${path}: must be {markdown: string}, {document: JSONDocument} or {}`);
}

/** The text of the document's first block when it is a heading 1: Git Sync's page title. */
export function leadingHeading(document: Document): string | undefined {
  const [first] = document.nodes;
  if (first?.type !== 'heading-1') return undefined;
  const text = inlineText(first.nodes).trim();
  return text === '' ? undefined : text;
}

export const withoutFirstBlock = (document: Document): Document => ({
  ...document,
  nodes: document.nodes.slice(1),
});
