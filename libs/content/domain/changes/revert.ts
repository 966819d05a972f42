import { type ContentObject, getPageObject, readContent } from '@app/documents/tree/content';
import type { PagePatch } from '@app/documents/tree/editor';
import type { JsonValue } from '@app/documents/tree/hash';
import type { ObjectStore } from '@app/documents/tree/objects';
import { type PageObject, pageRecord } from '@app/documents/tree/page';
import { childIds, getDocument } from '@app/documents/tree/page-tree';
import { conflict, invalid, notFound } from '@app/platform/domain/decider';
import type { Batch } from './batch';
import { requireString } from './check';
import { blocksOf, revertBlocks } from './revert-blocks';
import type { ApplyContext, RevertPageInput } from './types';

/** What a page's own record holds beside its fields: a revert restores fields and body, not identity or place. */
const NOT_RESTORED = new Set(['id', 'type', 'parent', 'position', 'documentId']);

/**
 * revert_page: the page as it was in `revision` (or the change request's base). Whole: a page absent
 * there is deleted (with its subtree), a page absent now is inserted again as it was (under its old
 * parent when that still exists, else at the top), and otherwise its fields and body are restored (it
 * stays where it is now). With `block`: only those top-level blocks of its body (revert-blocks.ts).
 */
export async function revertPage(batch: Batch, change: RevertPageInput, path: string) {
  const id = requireString(change.page, `${path}.page`);
  const target = await targetContent(batch.ctx, change.revision, `${path}.revision`);
  const old = target ? await getPageObject(batch.ctx.store, target, id) : undefined;
  const { store, content } = batch.editor.snapshot();
  const now = await getPageObject(store, content, id);
  if (change.block !== undefined) return revertBlocksOf(batch, { id, old, now }, change.block, path);
  if (!old && !now)
    throw notFound(`${path}.page: page ${id} is in neither the change request nor the revision`);
  if (!old) {
    for (const deleted of await batch.editor.deletePage(id)) batch.outcomes.deleted(deleted);
  } else if (!now) {
    await reinsert(batch, old, target as ContentObject);
    batch.outcomes.created(id);
  } else {
    await restore(batch, old, now, path);
    batch.outcomes.updated(id);
  }
}

/** The content to revert to; null: the base is empty content. */
async function targetContent(
  ctx: ApplyContext,
  revision: unknown,
  path: string,
): Promise<ContentObject | null> {
  if (revision === undefined) return ctx.baseRoot === null ? null : readContent(ctx.store, ctx.baseRoot);
  const root = await ctx.revisionRoot(requireString(revision, path));
  if (root === undefined) throw notFound(`${path}: revision ${revision} not found`);
  return readContent(ctx.store, root);
}

async function reinsert(batch: Batch, old: PageObject, target: ContentObject) {
  const { store, content } = batch.editor.snapshot();
  const { id, type, title, parent, position: _, documentId, ...fields } = old;
  const keepsParent = parent === null || (await getPageObject(store, content, parent)) !== undefined;
  const index = keepsParent ? (await childIds(batch.ctx.store, target, parent)).indexOf(id) : undefined;
  await batch.editor.insertPage({
    ...fields,
    id,
    type,
    title,
    parent: keepsParent ? parent : null,
    index,
    document: await documentOf(batch.ctx.store, old),
    updatedAt: batch.ctx.at,
  });
}

async function restore(batch: Batch, old: PageObject, now: PageObject, path: string) {
  if (old.type !== now.type)
    throw conflict(`${path}.page: page ${now.id} is a ${now.type} page, it was a ${old.type} page`);
  const was = pageRecord(old);
  const patch: Record<string, JsonValue | null | undefined> = {};
  for (const field of new Set([...Object.keys(now), ...Object.keys(old)])) {
    if (!NOT_RESTORED.has(field)) patch[field] = was[field] ?? null;
  }
  await batch.editor.updatePage(now.id, {
    ...(patch as PagePatch),
    document: (await documentOf(batch.ctx.store, old)) ?? null,
    updatedAt: batch.ctx.at,
  });
}

async function revertBlocksOf(
  batch: Batch,
  page: { id: string; old: PageObject | undefined; now: PageObject | undefined },
  keys: unknown,
  path: string,
) {
  if (!Array.isArray(keys) || keys.length === 0 || keys.some((k) => typeof k !== 'string' || k === ''))
    throw invalid(`${path}.block: must list block keys`);
  if (!page.now) throw notFound(`${path}.page: page ${page.id} not found`);
  if (page.now.type !== 'document') throw invalid(`${path}.page: a ${page.now.type} page has no blocks`);
  const current = await documentOf(batch.editor.snapshot().store, page.now);
  const old = page.old && (await documentOf(batch.ctx.store, page.old));
  const nodes = revertBlocks(blocksOf(current), blocksOf(old), keys, `${path}.block`);
  // The body keeps its own fields (`data`); a page that had none takes the old one's.
  const base = (current ?? old ?? { object: 'document', data: {} }) as object;
  const document = { ...base, nodes };
  await batch.editor.updatePage(page.id, { document, updatedAt: batch.ctx.at });
  batch.outcomes.updated(page.id);
}

const documentOf = async (store: ObjectStore, page: PageObject): Promise<JsonValue | undefined> =>
  page.documentId === undefined ? undefined : getDocument(store, page.documentId);
