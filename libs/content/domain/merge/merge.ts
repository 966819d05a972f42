import {
  applyPageChanges,
  type ContentObject,
  type FileObject,
  getPageObject,
  type PageChange,
  type ReusableContentObject,
  readContent,
  references,
  type Variables,
} from '@app/documents/tree/content';
import { diffObjects, type ItemDiff } from '@app/documents/tree/diff';
import { type Hash, hashOf, type JsonValue, jsonEquals } from '@app/documents/tree/hash';
import { type MapRoot, mapDelete, mapSet } from '@app/documents/tree/merkle-map';
import { type ObjectStore, ObjectWriter, readObject } from '@app/documents/tree/objects';
import { compact, LOCATION_FIELDS, type PageObject } from '@app/documents/tree/page';
import { childIds } from '@app/documents/tree/page-tree';
import { mergeDocuments } from './blocks';
import { type MergeConflict, type PageConflict, sortConflicts } from './conflicts';
import { merge3, mergeRecords, type RecordRules } from './three-way';

export type MergeResult =
  | { result: 'merge'; root: Hash; created: Map<Hash, unknown> }
  | { result: 'conflicts'; conflicts: MergeConflict[] };

/** Either the merged item (undefined: deleted) or why it cannot be merged. */
type ItemMerge<T> = { value: T | undefined } | { conflicts: MergeConflict[] };

/**
 * Three-way merge of two revisions' content from their common base (a change request into the space:
 * `ours` is the space's latest, `theirs` the change request's). Items changed on one side only are
 * taken from it; an item changed on both is merged field by field, and its document block by block.
 * The result must still be a valid tree: every page's parent exists, no page is under itself, sibling
 * slugs are unique. Any conflict answers all conflicts and no root: nothing is changed.
 *
 * Deterministic: the result depends only on the three roots (items are visited in id order, objects
 * are content-addressed and the maps have one shape per content).
 */
export async function mergeRevisions(
  store: ObjectStore,
  base: Hash,
  ours: Hash,
  theirs: Hash,
): Promise<MergeResult> {
  if (theirs === base || theirs === ours) return { result: 'merge', root: ours, created: new Map() };
  if (ours === base) return { result: 'merge', root: theirs, created: new Map() };
  const writer = new ObjectWriter(store);
  const [b, o, t] = await Promise.all([base, ours, theirs].map((root) => readContent(store, root)));
  const conflicts: MergeConflict[] = [];
  const collect = <T>(merged: ItemMerge<T>): merged is { value: T | undefined } => {
    if ('conflicts' in merged) conflicts.push(...merged.conflicts);
    return !('conflicts' in merged);
  };

  const [ourPages, theirPages] = await Promise.all([
    diffObjects<PageObject>(writer, b.pages, o.pages),
    diffObjects<PageObject>(writer, b.pages, t.pages),
  ]);
  const ourPageChanges = new Map(ourPages.map((d) => [d.id, d]));
  const pageChanges: PageChange[] = [];
  for (const theirChange of theirPages) {
    const ourChange = ourPageChanges.get(theirChange.id);
    const current = ourChange ? ourChange.after : theirChange.before;
    const merged = ourChange
      ? await mergePage(writer, theirChange.before, ourChange.after, theirChange.after)
      : { value: theirChange.after };
    if (collect(merged) && !jsonEquals(merged.value, current)) {
      pageChanges.push({ id: theirChange.id, before: current, after: merged.value });
    }
  }

  const files = await mergeMap<FileObject>(writer, b.files, o.files, t.files, async (...items) =>
    mergeFile(...items),
  );
  const reusables = await mergeMap<ReusableContentObject>(
    writer,
    b.reusables,
    o.reusables,
    t.reusables,
    (...items) => mergeReusable(writer, ...items),
  );
  const variables = await mergeVariables(writer, b.variables, o.variables, t.variables);
  for (const merged of [files, reusables, variables]) collect(merged);
  if (conflicts.length > 0 || !('value' in files) || !('value' in reusables) || !('value' in variables)) {
    return { result: 'conflicts', conflicts: sortConflicts(conflicts) };
  }

  const applied = await applyPageChanges(writer, o, pageChanges);
  for (const c of applied.collisions) {
    conflicts.push({ pageId: c.pageId, reason: 'slug-taken', slug: c.slug, otherPageId: c.otherPageId });
  }
  const content: ContentObject = {
    ...applied.content,
    files: files.value ?? null,
    reusables: reusables.value ?? null,
    variables: variables.value ?? null,
  };
  const touched = [...new Set([...ourPages.map((d) => d.id), ...theirPages.map((d) => d.id)])].sort();
  conflicts.push(...(await checkTree(writer, content, touched)));
  if (conflicts.length > 0) return { result: 'conflicts', conflicts: sortConflicts(conflicts) };
  const root = writer.put(content);
  return { result: 'merge', root, created: writer.created(root, references) };
}

/**
 * Rebases a change request (`branch`, made from `base`) onto the space's latest revision (`onto`): the
 * same three-way merge, whose result becomes the change request's new revision.
 */
export const rebaseRevision = (store: ObjectStore, base: Hash, onto: Hash, branch: Hash) =>
  mergeRevisions(store, base, onto, branch);

const PAGE_RULES: RecordRules = { units: { location: LOCATION_FIELDS }, latest: ['updatedAt'] };

async function mergePage(
  writer: ObjectWriter,
  base: PageObject | undefined,
  ours: PageObject | undefined,
  theirs: PageObject | undefined,
): Promise<ItemMerge<PageObject>> {
  const pageId = (ours ?? theirs ?? base)?.id as string;
  const whole = mergeWhole({ pageId }, base, ours, theirs);
  if (whole) return whole;
  const merged = await mergeWithBody(
    writer,
    base as PageObject,
    ours as PageObject,
    theirs as PageObject,
    PAGE_RULES,
  );
  if ('value' in merged) return merged;
  const conflicts: PageConflict[] = [];
  const fields = merged.fields.filter((f) => f !== 'location');
  if (fields.length < merged.fields.length) conflicts.push({ pageId, reason: 'moved-both' });
  if (merged.blocks.length > 0) conflicts.push({ pageId, reason: 'blocks', blocks: merged.blocks });
  if (fields.length > 0) conflicts.push({ pageId, reason: 'edited-both', fields });
  return { conflicts };
}

async function mergeReusable(
  writer: ObjectWriter,
  reusableContentId: string,
  base?: ReusableContentObject,
  ours?: ReusableContentObject,
  theirs?: ReusableContentObject,
): Promise<ItemMerge<ReusableContentObject>> {
  const whole = mergeWhole({ reusableContentId }, base, ours, theirs);
  if (whole) return whole;
  const merged = await mergeWithBody(
    writer,
    base as ReusableContentObject,
    ours as ReusableContentObject,
    theirs as ReusableContentObject,
    {},
  );
  if ('value' in merged) return merged;
  const { blocks, fields } = merged;
  return {
    conflicts: [
      ...(blocks.length > 0 ? [{ reusableContentId, reason: 'blocks' as const, blocks }] : []),
      ...(fields.length > 0 ? [{ reusableContentId, reason: 'edited-both' as const, fields }] : []),
    ],
  };
}

function mergeFile(
  fileId: string,
  base?: FileObject,
  ours?: FileObject,
  theirs?: FileObject,
): ItemMerge<FileObject> {
  const whole = mergeWhole({ fileId }, base, ours, theirs);
  if (whole) return whole;
  // A file's bytes (where, what type, how big) change together; its name apart.
  const rules = { units: { content: ['downloadURL', 'contentType', 'size', 'dimensions', 'git'] } };
  const fields = mergeRecords(base as FileObject, ours as FileObject, theirs as FileObject, rules);
  if (fields.conflicts.length > 0)
    return { conflicts: [{ fileId, reason: 'edited-both', fields: fields.conflicts }] };
  return { value: compact(fields.value) as FileObject };
}

type Subject = { pageId: string } | { fileId: string } | { reusableContentId: string };

/**
 * The cases where an item merges whole: changed on one side only or alike on both, deleted or added.
 * Answers undefined when both sides changed an item the base had, which then merges field by field.
 */
function mergeWhole<T>(subject: Subject, base?: T, ours?: T, theirs?: T): ItemMerge<T> | undefined {
  const merged = merge3(base, ours, theirs);
  if (merged.ok) return { value: merged.value };
  const conflict =
    base === undefined
      ? { reason: 'added-both' }
      : ours === undefined || theirs === undefined
        ? { reason: 'deleted-edited', deletedBy: ours === undefined ? 'ours' : 'theirs' }
        : undefined;
  return conflict && { conflicts: [{ ...subject, ...conflict } as MergeConflict] };
}

/**
 * An item with a body (a page, a reusable content) changed on both sides: its fields merged one by one,
 * its document block by block. Answers the merged item, or the fields and blocks in conflict.
 */
async function mergeWithBody<T extends { documentId?: Hash }>(
  writer: ObjectWriter,
  base: T,
  ours: T,
  theirs: T,
  rules: RecordRules,
): Promise<{ value: T } | { fields: string[]; blocks: string[] }> {
  const merged = mergeRecords(base, ours, theirs, { ...rules, skip: ['documentId'] });
  const document = await mergeDocumentIds(writer, base.documentId, ours.documentId, theirs.documentId);
  if ('value' in document && merged.conflicts.length === 0) {
    return { value: compact({ ...merged.value, documentId: document.value }) as T };
  }
  const fields = [...merged.conflicts, ...('fields' in document ? document.fields : [])].sort();
  return { fields, blocks: 'blocks' in document ? document.blocks : [] };
}

/** A body changed on both sides, merged block by block; the merged document is stored if it is new. */
async function mergeDocumentIds(
  writer: ObjectWriter,
  base: Hash | undefined,
  ours: Hash | undefined,
  theirs: Hash | undefined,
): Promise<{ value: Hash | undefined } | { blocks: string[]; fields: string[] }> {
  const whole = merge3(base, ours, theirs);
  if (whole.ok) return { value: whole.value };
  if (base === undefined || ours === undefined || theirs === undefined)
    return { blocks: [], fields: ['document'] };
  const [b, o, t] = await Promise.all([base, ours, theirs].map((h) => readObject<JsonValue>(writer, h)));
  const merged = mergeDocuments(b, o, t);
  if (!merged.ok) return { blocks: merged.blocks, fields: merged.fields.map((f) => `document.${f}`) };
  const hash = hashOf(merged.document);
  return { value: hash === ours || hash === theirs ? hash : writer.put(merged.document) };
}

/** Merges a map of objects (files, reusable contents) item by item, onto ours. */
async function mergeMap<T>(
  writer: ObjectWriter,
  base: MapRoot,
  ours: MapRoot,
  theirs: MapRoot,
  mergeItem: (id: string, base?: T, ours?: T, theirs?: T) => Promise<ItemMerge<T>>,
): Promise<ItemMerge<MapRoot>> {
  if (theirs === base || theirs === ours) return { value: ours };
  if (ours === base) return { value: theirs };
  const [mine, yours] = await Promise.all([
    diffObjects<T>(writer, base, ours),
    diffObjects<T>(writer, base, theirs),
  ]);
  const changedByUs = new Map<string, ItemDiff<T>>(mine.map((d) => [d.id, d]));
  const conflicts: MergeConflict[] = [];
  let root = ours;
  for (const change of yours) {
    const ourChange = changedByUs.get(change.id);
    const merged = ourChange
      ? await mergeItem(change.id, change.before, ourChange.after, change.after)
      : { value: change.after };
    if ('conflicts' in merged) conflicts.push(...merged.conflicts);
    else if (merged.value === undefined) root = await mapDelete(writer, root, change.id);
    else root = await mapSet(writer, root, change.id, writer.put(merged.value));
  }
  return conflicts.length > 0 ? { conflicts } : { value: root };
}

async function mergeVariables(
  writer: ObjectWriter,
  base: Hash | null,
  ours: Hash | null,
  theirs: Hash | null,
): Promise<ItemMerge<Hash | null>> {
  if (theirs === base || theirs === ours) return { value: ours };
  if (ours === base) return { value: theirs };
  const read = (hash: Hash | null) => (hash ? readObject<Variables>(writer, hash) : {});
  const [b, o, t] = await Promise.all([read(base), read(ours), read(theirs)]);
  const merged = mergeRecords(b, o, t);
  if (merged.conflicts.length > 0) {
    return { conflicts: merged.conflicts.map((variable) => ({ variable, reason: 'edited-both' as const })) };
  }
  const value = compact(merged.value);
  return { value: Object.keys(value).length === 0 ? null : writer.put(value) };
}

/**
 * Checks the tree where either side changed it: each changed page's parent exists, no page ends up
 * under itself, and no deleted page keeps children. Each side's tree was valid (and page types never
 * change), so only the combination of both sides can break the tree, and only around what they changed.
 */
async function checkTree(
  store: ObjectStore,
  content: ContentObject,
  touched: string[],
): Promise<PageConflict[]> {
  const conflicts: PageConflict[] = [];
  for (const id of touched) {
    const page = await getPageObject(store, content, id);
    if (!page) {
      for (const child of await childIds(store, content, id))
        conflicts.push({ pageId: child, reason: 'orphaned', parentId: id });
      continue;
    }
    const seen = new Set<string>([id]);
    for (let above = page.parent; above !== null; ) {
      const parent = await getPageObject(store, content, above);
      if (!parent) {
        if (above === page.parent) conflicts.push({ pageId: id, reason: 'orphaned', parentId: above });
        break;
      }
      if (seen.has(above)) {
        conflicts.push({ pageId: id, reason: 'cycle' });
        break;
      }
      seen.add(above);
      above = parent.parent;
    }
  }
  return conflicts;
}
