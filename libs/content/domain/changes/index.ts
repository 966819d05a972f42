/**
 * A batch of GitBook's `updateChangeRequestContent` changes applied to a revision's content editor:
 * apply.ts runs the batch (batch.ts draws ids and refs first), pages.ts inserts, updates and deletes
 * pages (body.ts, metadata.ts, slug.ts, links.ts read what a change gives), revert.ts and
 * revert-blocks.ts revert a page, files.ts inserts files, outcomes.ts reports what became of each page.
 */
export { applyContentChanges, MAX_CHANGES } from './apply';
export {
  type ConvertedMarkdown,
  MAX_BODY_BYTES,
  markdownOfBody,
  markdownOfChanges,
  ParsedBodies,
} from './body';
export { fileDownloadPath, MAX_FILE_BYTES } from './files';
export { slugify } from './slug';
export type {
  AppliedChanges,
  ApplyContext,
  ContentChangeInput,
  DeletePageInput,
  FileInput,
  InsertedFile,
  InsertFilesInput,
  InsertPageInput,
  PageOutcome,
  RevertPageInput,
  UpdatePageInput,
} from './types';
