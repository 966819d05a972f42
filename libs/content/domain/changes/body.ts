import { type Document, type Frontmatter, markdownToDocument } from '@app/documents/document';
import { checkDocument } from '@app/documents/document/check-document';
import { inlineText } from '@app/documents/document/document-text';
import { invalid } from '@app/platform/domain/decider';
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

/**
 * The bodies of a batch's changes parsed before the batch is applied, each handed out once (`take`):
 * parsing Markdown is most of an edit's work, and done ahead it happens before the space's change
 * requests are locked for the edit, rather than while every other edit of the space waits. A body that
 * does not parse is parsed again where the batch reaches it, which reports it in its turn; a retried
 * batch parses again too (its documents may have been changed in place).
 */
export class ParsedBodies {
  private readonly bodies = new Map<object, PageBody>();

  constructor(changes: unknown) {
    if (!Array.isArray(changes)) return;
    for (const change of changes) {
      const input = isRecord(change) ? change.document : undefined;
      if (!isRecord(input)) continue;
      try {
        this.bodies.set(input, readBody(input, 'document'));
      } catch {
        // Reported by `take` when the batch reaches the change.
      }
    }
  }

  /** The body parsed ahead for `input`, once; else `readBody`. */
  take(input: unknown, path: string): PageBody {
    const body = isRecord(input) ? this.bodies.get(input) : undefined;
    if (!body) return readBody(input, path);
    this.bodies.delete(input as object);
    return body;
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
