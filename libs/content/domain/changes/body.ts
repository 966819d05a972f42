import { type Document, type Frontmatter, markdownToDocument } from '@app/documents/document';
import { checkDocument } from '@app/documents/document/check-document';
import { parseConverted } from '@app/documents/document/conversions';
import { inlineText } from '@app/documents/document/document-text';
import { invalid, tooLarge } from '@app/platform/domain/decider';
import { isRecord, named } from './check';

/**
 * The largest page body a change may carry, as Markdown or as JSON (UTF-8 bytes): a larger one is
 * refused with a 413 naming its field. A body up to it is stored whatever it converts to (a document
 * larger than an append is stored in parts: libs/documents/tree/stored-objects.ts).
 */
export const MAX_BODY_BYTES = 1024 * 1024;

/** A change's `document` (GitBook's Document): Markdown, a JSON document, or `{}` for an empty page. */
export type PageBody =
  | { kind: 'markdown'; document: Document; frontmatter: Frontmatter }
  | { kind: 'json'; document: Document }
  | { kind: 'empty' };

/**
 * Markdown converted ahead, off the thread that serves requests (`DocumentConversions`), by its text:
 * the JSON of the document it makes (with that document's own Markdown when asked for), or why it was
 * refused (the end of a sentence about the field).
 */
export type ConvertedMarkdown = ReadonlyMap<
  string,
  { json: string; markdown?: string } | { refused: string }
>;

/**
 * A page body. Its Markdown is read from `converted` when given (a refusal there is this body's, named
 * by `path`); converted here only without it (callers that convert nothing ahead: specs, scripts).
 */
export function readBody(input: unknown, path: string, converted?: ConvertedMarkdown): PageBody {
  if (!isRecord(input)) throw invalid(`${path}: must be {markdown}, {document} or {}`);
  const keys = Object.keys(input);
  if (keys.length === 0) return { kind: 'empty' };
  if (keys.length === 1 && typeof input.markdown === 'string') {
    if (Buffer.byteLength(input.markdown) > MAX_BODY_BYTES)
      throw tooLarge(
        `${path}.markdown: is larger than 1 MiB (${MAX_BODY_BYTES} bytes), the most a page stores`,
      );
    if (converted) {
      const done = converted.get(input.markdown);
      if (!done) throw new Error(`${path}.markdown was not converted ahead`);
      if ('refused' in done) throw invalid(`${path}.markdown: ${done.refused}`);
      return { kind: 'markdown', ...parseConverted(done.json) };
    }
    try {
      return { kind: 'markdown', ...markdownToDocument(input.markdown) };
    } catch (error) {
      throw named(error, `${path}.markdown`);
    }
  }
  if (keys.length === 1 && 'document' in input) {
    if (Buffer.byteLength(JSON.stringify(input.document)) > MAX_BODY_BYTES)
      throw tooLarge(
        `${path}.document: is larger than 1 MiB (${MAX_BODY_BYTES} bytes) as JSON, the most a page stores`,
      );
    return { kind: 'json', document: checkDocument(input.document, `${path}.document`) };
  }
  throw invalid(`${path}: must be {markdown: string}, {document: JSONDocument} or {}`);
}

/** The Markdown of a body (`{markdown}`) of at most `maxBytes`, to convert ahead; none otherwise. */
export function markdownOfBody(input: unknown, maxBytes = MAX_BODY_BYTES): string[] {
  if (!isRecord(input) || Object.keys(input).length !== 1 || typeof input.markdown !== 'string') return [];
  return Buffer.byteLength(input.markdown) > maxBytes ? [] : [input.markdown];
}

/** The Markdown of a batch's page bodies, to convert ahead (`ParsedBodies`). */
export function markdownOfChanges(changes: unknown): string[] {
  if (!Array.isArray(changes)) return [];
  return changes.flatMap((change) => (isRecord(change) ? markdownOfBody(change.document) : []));
}

/**
 * The bodies of a batch's changes, their Markdown converted before the batch is applied: converting is
 * most of an edit's work, and done ahead it happens off the thread that serves requests and before the
 * space's change requests are locked for the edit, rather than while every other edit of the space
 * waits. A refused conversion is reported where the batch reaches its change, in its turn; a retried
 * batch reads the converted JSON again (its documents may have been changed in place).
 */
export class ParsedBodies {
  constructor(private readonly converted: ConvertedMarkdown) {}

  take(input: unknown, path: string): PageBody {
    return readBody(input, path, this.converted);
  }
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
