import { getPageObject } from '@app/documents/tree/content';
import type { ContentEditor } from '@app/documents/tree/editor';
import type { PageObject } from '@app/documents/tree/page';
import { findPageByPath } from '@app/documents/tree/paths';
import { conflict, invalid, notFound } from '@app/platform/domain/decider';
import { changePath, isRecord, requireString } from './check';
import type { LinkTargets } from './links';
import type { Outcomes } from './outcomes';
import type { ApplyContext, ContentChangeInput, InsertedFile } from './types';

/** What the changes of one batch share while they apply. */
export interface Batch {
  editor: ContentEditor;
  ctx: ApplyContext;
  plan: Plan;
  outcomes: Outcomes;
  insertedFiles: InsertedFile[];
}

/**
 * The ids and refs of everything the batch inserts, drawn before any change applies, so that a page may
 * link to a page or file of a later change (`./<ref>`).
 */
export interface Plan {
  /** Change index → id of the page it inserts. */
  pageIds: ReadonlyMap<number, string>;
  /** Change index → ids of the files it inserts, in order. */
  fileIds: ReadonlyMap<number, string[]>;
  pageRefs: ReadonlyMap<string, string>;
  fileRefs: ReadonlyMap<string, string>;
}

export const OPERATIONS = ['insert_page', 'update_page', 'delete_page', 'revert_page', 'insert_files'];

export async function planBatch(
  changes: readonly ContentChangeInput[],
  ctx: ApplyContext,
  editor: ContentEditor,
): Promise<Plan> {
  const pageIds = new Map<number, string>();
  const fileIds = new Map<number, string[]>();
  const pageRefs = new Map<string, string>();
  const fileRefs = new Map<string, string>();
  const { store, content } = editor.snapshot();
  const takeRef = async (value: unknown, path: string, refs: Map<string, string>, id: string) => {
    if (value === undefined) return;
    const ref = requireString(value, path);
    if (pageRefs.has(ref) || fileRefs.has(ref))
      throw conflict(`${path}: ref "${ref}" is used twice in the batch`);
    if (await findPageByPath(store, content, ref))
      throw conflict(`${path}: ref "${ref}" is the path of an existing page`);
    refs.set(ref, id);
  };
  for (const [index, change] of changes.entries()) {
    const path = changePath(index);
    if (!isRecord(change) || !OPERATIONS.includes(change.operation as string)) {
      throw invalid(`${path}.operation: must be one of ${OPERATIONS.join(', ')}`);
    }
    if (change.operation === 'insert_page') {
      const id = ctx.newId();
      pageIds.set(index, id);
      await takeRef(change.ref, `${path}.ref`, pageRefs, id);
    } else if (change.operation === 'insert_files') {
      if (!Array.isArray(change.files) || change.files.length === 0 || change.files.length > 20)
        throw invalid(`${path}.files: must list 1 to 20 files`);
      const ids = change.files.map(() => ctx.newId());
      fileIds.set(index, ids);
      for (const [i, file] of change.files.entries()) {
        if (!isRecord(file)) throw invalid(`${path}.files[${i}]: must be an object`);
        await takeRef(file.ref, `${path}.files[${i}].ref`, fileRefs, ids[i]);
      }
    }
  }
  return { pageIds, fileIds, pageRefs, fileRefs };
}

/** The page `id` as edited so far, or a refusal naming the field that gave the id. */
export async function requirePage(editor: ContentEditor, id: unknown, path: string): Promise<PageObject> {
  const pageId = requireString(id, path);
  const { store, content } = editor.snapshot();
  const page = await getPageObject(store, content, pageId);
  if (!page) throw notFound(`${path}: page ${pageId} not found`);
  return page;
}

export function linkTargets(batch: Batch): LinkTargets {
  const { store, content } = batch.editor.snapshot();
  return {
    store,
    content,
    pageRefs: batch.plan.pageRefs,
    fileRefs: batch.plan.fileRefs,
    batchPages: new Set(batch.plan.pageIds.values()),
    batchFiles: new Set([...batch.plan.fileIds.values()].flat()),
  };
}
