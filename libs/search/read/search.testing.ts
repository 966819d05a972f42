import {
  type ContentObjectsEvent,
  contentObjectProjection,
  contentObjectsStream,
  type SpaceContentEvent,
  spaceContentStream,
} from '@app/content/content.api';
import { doc } from '@app/documents/tree/content.testing';
import { ContentEditor } from '@app/documents/tree/editor';
import type { Hash } from '@app/documents/tree/hash';
import { MemoryObjectStore, serializeObjects } from '@app/documents/tree/objects';
import { getPage } from '@app/documents/tree/page-tree';
import type { DomainEvent } from '@app/platform/domain/decider';
import { type Projection, projection } from '@app/platform/projector/projection';
import { givenProjection, recorderOf } from '@app/platform/projector/projection.testing';
import { type SpaceEvent, spaceStream } from '@app/spaces/domain/space.decider';
import { searchProjection } from './search.projection';

/** Builders for the tests of search: spaces, their pages' content, merges, and the projection that indexes them. */

export const spaceEvent = recorderOf<SpaceEvent>();
const contentEvent = recorderOf<SpaceContentEvent>();
const objectsEvent = recorderOf<ContentObjectsEvent>();
export const t = (day: number) => `2026-01-${String(day).padStart(2, '0')}T00:00:00.000Z`;

/** Search reads the content objects, which their own projection stores: both, as the projector runs them. */
const both = (...projections: Projection[]) =>
  projection<DomainEvent>(
    'search-and-objects',
    projections.flatMap((p) => p.indexes),
    Object.fromEntries(
      projections.flatMap((p) => p.handles.map((type) => [type, (e, ctx) => p.apply(e, ctx)] as const)),
    ),
    projections.flatMap((p) => p.collections),
  );
export const search = givenProjection(both(contentObjectProjection, searchProjection));

/** Every content object the builders wrote, of every space. */
export const store = new MemoryObjectStore();

/** Pages written on `root` (replaced where they exist): the new root, and the event storing its objects in `space`. */
export async function written(
  space: string,
  root: Hash | null,
  pages: Array<[id: string, title: string, text: string]>,
  removed: string[] = [],
) {
  const editor = await ContentEditor.open(store, root);
  for (const [id, title, text] of pages) {
    const document = doc([`k-${id}`, text]);
    if (root !== null && (await getPage(store, root, id))) await editor.updatePage(id, { title, document });
    else await editor.insertPage({ id, type: 'document', title, slug: id, document });
  }
  for (const id of removed) await editor.deletePage(id);
  const commit = editor.commit();
  store.add(commit.created);
  const stored = objectsEvent(
    'ContentObjectsStored',
    { spaceId: space, objects: serializeObjects(commit.created) },
    { stream: contentObjectsStream(space) },
  );
  return { root: commit.root, stored };
}
export type Written = Awaited<ReturnType<typeof written>>;

export const created = (
  id: string,
  extra: Partial<Extract<SpaceEvent, { type: 'SpaceCreated' }>['data']> = {},
) =>
  spaceEvent(
    'SpaceCreated',
    {
      id,
      organization: 'o1',
      parent: null,
      title: id,
      emoji: '',
      editMode: 'live',
      defaultLevel: 'inherit',
      visibility: 'private',
      revision: `rev-${id}`,
      position: 0,
      createdAt: t(1),
      ...extra,
    },
    { stream: spaceStream(id) },
  );
export const merged = (space: string, root: Hash, n = 1) =>
  contentEvent(
    'ChangeRequestMerged',
    {
      spaceId: space,
      changeRequestId: `cr${n}`,
      revision: { id: `rev-${space}-${n}`, root },
      parents: [`rev-${space}`, `cr-rev-${n}`],
      previousStatus: 'open',
      mergedBy: 'u1',
      mergedAt: t(2 + n),
    },
    { stream: spaceContentStream(space) },
  );
export const languageSet = (space: string, language: 'en' | 'fr' | 'de') =>
  spaceEvent(
    'SpaceUpdated',
    { spaceId: space, changes: { language }, updatedAt: t(8) },
    { stream: spaceStream(space) },
  );
