import type { Document } from '@app/documents/document';
import { checkDocument } from '@app/documents/document/check-document';
import { invalid } from '@app/platform/domain/decider';
import { type ConvertedMarkdown, readBody } from './changes/body';

/**
 * The most a change request's description or a review's comment holds, as JSON: they are recorded in
 * the change request's events, which every change of its space reads back, unlike page bodies.
 */
export const MAX_NOTE_BYTES = 64 * 1024;

function bounded(document: Document, path: string): Document {
  if (Buffer.byteLength(JSON.stringify(document)) > MAX_NOTE_BYTES)
    throw invalid(`${path}: is larger than ${MAX_NOTE_BYTES / 1024} KiB as a JSON document`);
  return document;
}

/** A change request's description: GitBook's `JSONDocument`. */
export function readDescription(input: unknown, path = 'description'): Document {
  if (Buffer.byteLength(JSON.stringify(input) ?? '') > MAX_NOTE_BYTES)
    throw invalid(`${path}: is larger than ${MAX_NOTE_BYTES / 1024} KiB`);
  return bounded(checkDocument(input, path), path);
}

/**
 * A review's comment: GitBook's `Document` (`{markdown}`, `{document}`); `{}` is no comment. Its Markdown
 * is read from `converted` when given (see `readBody`).
 */
export function readComment(
  input: unknown,
  path = 'comment',
  converted?: ConvertedMarkdown,
): Document | undefined {
  if (Buffer.byteLength(JSON.stringify(input) ?? '') > MAX_NOTE_BYTES)
    throw invalid(`${path}: is larger than ${MAX_NOTE_BYTES / 1024} KiB`);
  const body = readBody(input, path, converted);
  if (body.kind === 'empty') return undefined;
  return bounded(body.document, path);
}
