import type { FileObject } from '@app/documents/tree/content';
import type { ObjectStore } from '@app/documents/tree/objects';
import type {
  ChangeRequestContentChange,
  ChangeRequestContentChangeDeletePage,
  ChangeRequestContentChangeInsertFiles,
  ChangeRequestContentChangeInsertPage,
  ChangeRequestContentChangeRevertPage,
  ChangeRequestContentChangeUpdatePage,
} from '@gitbook/api';
import type { ParsedBodies } from './body';

/** One change of GitBook's `updateChangeRequestContent` body, as `@gitbook/api` types it. */
export type ContentChangeInput = ChangeRequestContentChange;
export type InsertPageInput = ChangeRequestContentChangeInsertPage;
export type UpdatePageInput = ChangeRequestContentChangeUpdatePage;
export type DeletePageInput = ChangeRequestContentChangeDeletePage;
export type RevertPageInput = ChangeRequestContentChangeRevertPage;
export type InsertFilesInput = ChangeRequestContentChangeInsertFiles;
export type FileInput = InsertFilesInput['files'][number];

export interface ApplyContext {
  /** Ids for new pages and files, drawn in the order of the changes (tests give a deterministic one). */
  newId(): string;
  /** ISO time: the `createdAt`/`updatedAt` of the pages touched. */
  at: string;
  /** The content root of a revision by id, for revert_page with `revision`; undefined when unknown. */
  revisionRoot(revisionId: string): Promise<string | undefined>;
  /** The change request's base revision root (null: empty content), for revert_page without `revision`. */
  baseRoot: string | null;
  /** Where the pages of other revisions are read from (revert_page). */
  store: ObjectStore;
  /** The batch's bodies parsed ahead (`ParsedBodies`); absent: each parsed where it is applied. */
  bodies?: ParsedBodies;
}

/** What became of each page a batch touched (GitBook's ChangeRequestContentUpdateChange, by page id). */
export type PageOutcome =
  | { object: 'created_page'; page: string; ref?: string }
  | { object: 'updated_page'; page: string }
  | { object: 'deleted_page'; page: string };

/**
 * A file an insert_files change put in the content: the file as stored (GitBook's RevisionFile), and for
 * a `base64` one its decoded `bytes`. A `url` file keeps that URL as `downloadURL` (size 0: the caller
 * may fetch it). A `base64` file is stored with an empty `downloadURL`: the caller stores `bytes`, puts
 * the file again with its URL (`editor.putFile`) before committing, and leaves `bytes` out of answers.
 */
export type InsertedFile = FileObject & { bytes?: Buffer };

export interface AppliedChanges {
  /** One per page, in the order first touched (see outcomes.ts). */
  outcomes: PageOutcome[];
  /** In the order inserted. */
  insertedFiles: InsertedFile[];
}
