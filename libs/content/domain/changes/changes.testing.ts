import type { Document } from '@app/documents/document';
import { edit, newStore } from '@app/documents/tree/content.testing';
import { ContentEditor } from '@app/documents/tree/editor';
import type { Hash, JsonValue } from '@app/documents/tree/hash';
import type { MemoryObjectStore } from '@app/documents/tree/objects';
import { getDocument, getPage, listPages, type PageNode, type PageView } from '@app/documents/tree/page-tree';
import { DomainError } from '@app/platform/domain/decider';
import { applyContentChanges } from './apply';
import type { AppliedChanges, ApplyContext, ContentChangeInput } from './types';

/** Builders for the specs of content changes: a space's content, a batch applied as the caller does. */

export const AT = '2024-05-01T10:00:00.000Z';

/** Ids `n1`, `n2`… in the order drawn. */
export const sequentialIds = (prefix = 'n') => {
  let next = 0;
  return () => `${prefix}${++next}`;
};

export interface Space {
  store: MemoryObjectStore;
  root: Hash;
  /** Revision id → root, for revert_page. */
  revisions: Map<string, Hash>;
  base: Hash | null;
}

/** Content built with the editor (`intro`, `guides` › `setup`, `usage` unless told otherwise). */
export async function givenSpace(build: (e: ContentEditor) => Promise<unknown> = sampleTree): Promise<Space> {
  const store = newStore();
  const root = await edit(store, null, build);
  return { store, root, revisions: new Map([['r1', root]]), base: root };
}

export async function sampleTree(e: ContentEditor): Promise<void> {
  await e.insertPage({ id: 'intro', type: 'document', title: 'Intro', slug: 'intro' });
  await e.insertPage({ id: 'guides', type: 'document', title: 'Guides', slug: 'guides' });
  await e.insertPage({ id: 'setup', type: 'document', title: 'Setup', slug: 'setup', parent: 'guides' });
  await e.insertPage({ id: 'usage', type: 'document', title: 'Usage', slug: 'usage', parent: 'guides' });
}

export function contextFor(space: Space, overrides: Partial<ApplyContext> = {}): ApplyContext {
  return {
    newId: sequentialIds(),
    at: AT,
    baseRoot: space.base,
    store: space.store,
    revisionRoot: async (id) => space.revisions.get(id),
    ...overrides,
  };
}

/**
 * Applies a batch as the caller does: commits and stores on success, discards the editor on a refusal
 * (then `space.root` stays). Answers what was applied.
 */
export async function whenApplied(
  space: Space,
  changes: ContentChangeInput[],
  overrides: Partial<ApplyContext> = {},
): Promise<AppliedChanges> {
  const editor = await ContentEditor.open(space.store, space.root);
  const applied = await applyContentChanges(editor, changes, contextFor(space, overrides));
  const { root, created } = editor.commit();
  space.store.add(created);
  space.root = root;
  return applied;
}

/** The refusal of a batch, which must be a DomainError. */
export async function whenRefused(
  space: Space,
  changes: ContentChangeInput[],
  overrides: Partial<ApplyContext> = {},
): Promise<DomainError> {
  const error = await whenApplied(space, changes, overrides).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

/** The tree as `title (path)` lines, indented by depth. */
export async function outline(space: Space): Promise<string[]> {
  const lines = (pages: PageNode[], depth: number): string[] =>
    pages.flatMap((p) => [
      `${'  '.repeat(depth)}${p.title} (${p.path ?? '-'})`,
      ...lines(p.pages, depth + 1),
    ]);
  return lines(await listPages(space.store, space.root), 0);
}

export async function pageOf(space: Space, id: string): Promise<PageView> {
  const page = await getPage(space.store, space.root, id);
  if (!page) throw new Error(`no page ${id}`);
  return page;
}

export async function documentOf(space: Space, id: string): Promise<Document | undefined> {
  const { documentId } = await pageOf(space, id);
  return documentId === undefined
    ? undefined
    : ((await getDocument(space.store, documentId)) as unknown as Document);
}

/** The plain text of each top-level block, to compare bodies without their keys. */
export async function blockTexts(space: Space, id: string): Promise<string[]> {
  const text = (node: JsonValue): string => {
    if (typeof node !== 'object' || node === null) return '';
    if (Array.isArray(node)) return node.map(text).join('');
    if (node.object === 'leaf') return String(node.text);
    return text((node.leaves ?? node.nodes ?? []) as JsonValue);
  };
  return ((await documentOf(space, id))?.nodes ?? []).map((n) => text(n as unknown as JsonValue));
}

/** Every `data.ref` of a document, in document order. */
export function refsOf(document: Document | undefined): unknown[] {
  const refs: unknown[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === 'object') {
      const node = value as { data?: { ref?: unknown }; nodes?: unknown; fragments?: unknown };
      if (node.data?.ref) refs.push(node.data.ref);
      visit(node.nodes);
      visit(node.fragments);
    }
  };
  visit(document?.nodes);
  return refs;
}
