import type { ContentEditor } from '@app/documents/tree/editor';
import { invalid } from '@app/platform/domain/decider';
import { type Batch, planBatch } from './batch';
import { changePath, named } from './check';
import { insertFiles } from './files';
import { Outcomes } from './outcomes';
import { deletePage, insertPage, updatePage } from './pages';
import { revertPage } from './revert';
import type { AppliedChanges, ApplyContext, ContentChangeInput } from './types';

/** GitBook's limit on one batch (the HTTP layer checks it too). */
export const MAX_CHANGES = 50;

/**
 * Applies one batch of GitBook's `updateChangeRequestContent` changes to an editor, in order. The first
 * change refused throws a DomainError naming it (`changes[2].page: …`) and leaves the editor half-edited:
 * the caller makes the batch atomic by discarding the editor then, committing it only on success.
 */
export async function applyContentChanges(
  editor: ContentEditor,
  changes: ContentChangeInput[],
  ctx: ApplyContext,
): Promise<AppliedChanges> {
  if (!Array.isArray(changes) || changes.length === 0 || changes.length > MAX_CHANGES)
    throw invalid(`changes: must list 1 to ${MAX_CHANGES} changes`);
  const plan = await planBatch(changes, ctx, editor);
  const batch: Batch = { editor, ctx, plan, outcomes: new Outcomes(), insertedFiles: [] };
  for (const [index, change] of changes.entries()) {
    const path = changePath(index);
    try {
      await applyOne(batch, change, index, path);
    } catch (error) {
      throw named(error, path);
    }
  }
  return { outcomes: batch.outcomes.list(), insertedFiles: batch.insertedFiles };
}

function applyOne(batch: Batch, change: ContentChangeInput, index: number, path: string): Promise<void> {
  switch (change.operation) {
    case 'insert_page':
      return insertPage(batch, change, index, path);
    case 'update_page':
      return updatePage(batch, change, path);
    case 'delete_page':
      return deletePage(batch, change, path);
    case 'revert_page':
      return revertPage(batch, change, path);
    case 'insert_files':
      return insertFiles(batch, change, index, path);
  }
}
