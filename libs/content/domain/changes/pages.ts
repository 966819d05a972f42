import type { Document } from '@app/documents/document';
import { keepKeys, withKeys } from '@app/documents/document/keys';
import { getPageObject } from '@app/documents/tree/content';
import type { JsonValue } from '@app/documents/tree/hash';
import type { PageObject } from '@app/documents/tree/page';
import { childIds, getDocument } from '@app/documents/tree/page-tree';
import { pagePath } from '@app/documents/tree/paths';
import { invalid } from '@app/platform/domain/decider';
import { type Batch, linkTargets, requirePage } from './batch';
import { leadingHeading, type PageBody, readBody, withoutFirstBlock } from './body';
import { optionalIndex } from './check';
import { resolveLinks } from './links';
import { type Metadata, pageMetadata } from './metadata';
import { slugify, uniqueSlug } from './slug';
import type { DeletePageInput, InsertPageInput, UpdatePageInput } from './types';

const DEFAULT_TITLE = 'Untitled';

/** A change's body: parsed ahead when the batch was (`ApplyContext.bodies`), else here. */
const bodyOf = (batch: Batch, input: unknown, path: string): PageBody =>
  batch.ctx.bodies ? batch.ctx.bodies.take(input, path) : readBody(input, path);

export async function insertPage(batch: Batch, change: InsertPageInput, index: number, path: string) {
  const { editor, ctx } = batch;
  const id = batch.plan.pageIds.get(index) as string;
  const above =
    change.into === undefined ? undefined : await requirePage(editor, change.into, `${path}.into`);
  const parent = above?.id ?? null;
  const at = optionalIndex(change.at, `${path}.at`);
  const type = pageType(change, path);
  const body = bodyOf(batch, change.document, `${path}.document`);
  if (type === 'group' && body.kind !== 'empty')
    throw invalid(`${path}.document: a group has no document; give {}`);
  if (type === 'group' && parent !== null) throw invalid(`${path}.into: groups are only at the top level`);
  const fields = pageMetadata({ ...change }, body.kind === 'markdown' ? body.frontmatter : undefined, path);
  // Git Sync's rule: with no title given, a leading heading 1 is the title (and is not kept in the body).
  const heading = body.kind === 'markdown' ? leadingHeading(body.document) : undefined;
  const title = fields.title ?? heading ?? DEFAULT_TITLE;
  const { store, content } = editor.snapshot();
  // A new page has no children: in Git it is `<slug>.md` in its parent's folder.
  const folder = (above && (await pagePath(store, content, above))) ?? '';
  const document = await pageDocument(batch, body, title, folder);
  const slug = fields.slug ?? (await uniqueSlug(store, content, parent, slugify(title)));
  await editor.insertPage({
    ...setFields(fields),
    id,
    type,
    title,
    slug,
    parent,
    index: at,
    document: document ?? undefined,
    createdAt: ctx.at,
    updatedAt: ctx.at,
  });
  batch.outcomes.created(id, change.ref);
}

export async function updatePage(batch: Batch, change: UpdatePageInput, path: string) {
  const { editor, ctx } = batch;
  const page = await requirePage(editor, change.page, `${path}.page`);
  const parent =
    change.into === undefined || change.into === null
      ? change.into
      : (await requirePage(editor, change.into, `${path}.into`)).id;
  const at = optionalIndex(change.at, `${path}.at`);
  const body = change.document === undefined ? undefined : bodyOf(batch, change.document, `${path}.document`);
  const fields = pageMetadata({ ...change }, body?.kind === 'markdown' ? body.frontmatter : undefined, path);
  const written =
    body && (await pageDocument(batch, body, fields.title ?? page.title, await folderOf(batch, page)));
  // Markdown carries no keys: the blocks it leaves as they were keep theirs, so merges anchor on them.
  const document =
    body?.kind === 'markdown' && written && page.documentId
      ? (keepKeys(
          (await getDocument(batch.editor.snapshot().store, page.documentId)) as unknown as Document,
          written as unknown as Document,
        ) as unknown as JsonValue)
      : written;
  await editor.updatePage(page.id, {
    ...fields,
    ...(document === undefined ? {} : { document }),
    updatedAt: ctx.at,
  });
  if (parent !== undefined || at !== undefined) await editor.movePage(page.id, { parent, index: at });
  batch.outcomes.updated(page.id);
}

export async function deletePage(batch: Batch, change: DeletePageInput, path: string) {
  const page = await requirePage(batch.editor, change.page, `${path}.page`);
  for (const id of await batch.editor.deletePage(page.id)) batch.outcomes.deleted(id);
}

/**
 * Not GitBook's: `type: 'group'` inserts a page group (what Git Sync makes of a `## Group` heading of
 * SUMMARY.md), which GitBook's API cannot create; `document` is the default.
 */
function pageType(change: InsertPageInput, path: string): 'document' | 'group' {
  const type = (change as { type?: unknown }).type;
  if (type === undefined || type === 'document' || type === 'group') return type ?? 'document';
  throw invalid(`${path}.type: must be document or group`);
}

/**
 * The body to store (null: an empty page). From Markdown: without a leading heading 1 that only repeats
 * the title (GitBook shows the title above the body), and with its links resolved to GitBook references.
 */
async function pageDocument(batch: Batch, body: PageBody, title: string, folder: string) {
  if (body.kind === 'empty') return null;
  if (body.kind === 'json') return body.document as unknown as JsonValue;
  const repeatsTitle = leadingHeading(body.document) === title;
  const document: Document = repeatsTitle ? withoutFirstBlock(body.document) : body.document;
  const relinked = await resolveLinks(document, linkTargets(batch), folder);
  // Keys hash their node's content: what changed is keyed again.
  return (repeatsTitle || relinked ? withKeys(document) : document) as unknown as JsonValue;
}

/**
 * The folder a page's relative links start from in Git's layout: a page with children is
 * `<path>/README.md`, one without is `<path>.md` in its parent's folder.
 */
async function folderOf(batch: Batch, page: PageObject): Promise<string> {
  const { store, content } = batch.editor.snapshot();
  if ((await childIds(store, content, page.id)).length > 0)
    return (await pagePath(store, content, page)) ?? '';
  const parent = page.parent === null ? undefined : await getPageObject(store, content, page.parent);
  return (parent && (await pagePath(store, content, parent))) ?? '';
}

/** The fields set, without the removals (an inserted page has nothing to remove). */
const setFields = (fields: Metadata) =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null)) as {
    [K in keyof Metadata]: Exclude<Metadata[K], null>;
  };
