import type { CollectionEvent } from '@app/collections/domain/collection.decider';
import type { SpaceContentEvent } from '@app/content/domain/space-content.decider';
import type { DefaultLevel } from '@app/platform/domain/roles';
import { projection } from '@app/platform/projector/projection';
import { collectionName, type Doc } from '@app/platform/readstore/read-store.port';
import type { SpaceLanguage } from '../domain/language';
import type { MergeRulesConfiguration } from '../domain/merge-rules';
import { type EditMode, type SpaceEvent, type Visibility, visibilityIn } from '../domain/space.decider';

export interface SpaceDoc extends Doc {
  organization: string;
  parent: string | null;
  title: string;
  emoji: string;
  visibility: Visibility;
  editMode: EditMode;
  defaultLevel: DefaultLevel;
  /** Absent: `inherit`. */
  mergeRules?: MergeRulesConfiguration;
  /** Absent until set (the space reads as English). */
  language?: SpaceLanguage;
  revision: string;
  /** The content root of `revision` (what a duplicate starts from); absent: empty content. */
  root?: string;
  position: number;
  createdAt: string;
  updatedAt: string;
  deleted: boolean;
  deletedAt: string | null;
  purgeAfter: string | null;
  /** The deletion's event, so the purge it schedules can name its cause. */
  deletion: { eventId: string; correlationId: string } | null;
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
  /** Revision of the space's stream: its ETag. */
  streamRevision: number;
}

export const SPACES = collectionName<SpaceDoc>('spaces');

/**
 * Spaces, including deleted ones until they are purged. The spaces a collection holds go with it to
 * another organization, and to its parent when it is deleted.
 */
export const spaceProjection = projection<SpaceEvent | SpaceContentEvent | CollectionEvent>(
  'spaces',
  [
    { collection: SPACES, fields: ['organization', 'deleted', 'position'] },
    { collection: SPACES, fields: ['organization', 'parent', 'deleted', 'position'] },
    { collection: SPACES, fields: ['parent', 'deleted', 'position'] },
    { collection: SPACES, fields: ['deleted', 'purgeAfter'] },
  ],
  {
    SpaceCreated: async (e, ctx) => {
      const { duplicatedFrom: _d, ...data } = e.data;
      // The event's fields last: V8 adds fields listed after a spread one by one, ~10 µs a space.
      await ctx.put(SPACES, {
        updatedAt: data.createdAt,
        deleted: false,
        deletedAt: null,
        purgeAfter: null,
        deletion: null,
        comments: 0,
        changeRequests: 0,
        changeRequestsOpen: 0,
        changeRequestsDraft: 0,
        streamRevision: e.revision,
        ...data,
      });
    },
    SpaceUpdated: async (e, ctx) => {
      await change(e.data.spaceId, e.revision, ctx, (s) => ({
        ...s,
        ...e.data.changes,
        updatedAt: e.data.updatedAt,
      }));
    },
    SpaceDeleted: async (e, ctx) => {
      await change(e.data.spaceId, e.revision, ctx, (s) => ({
        ...s,
        deleted: true,
        deletedAt: e.data.deletedAt,
        purgeAfter: e.data.purgeAfter,
        deletion: { eventId: e.id, correlationId: e.metadata.correlationId },
        updatedAt: e.data.deletedAt,
      }));
    },
    SpaceRestored: async (e, ctx) => {
      await change(e.data.spaceId, e.revision, ctx, (s) => ({
        ...s,
        deleted: false,
        deletedAt: null,
        purgeAfter: null,
        deletion: null,
        updatedAt: e.data.restoredAt,
      }));
    },
    SpacePurged: async (e, ctx) => {
      await ctx.delete(SPACES, e.data.spaceId);
    },
    SpaceMoved: async (e, ctx) => {
      await change(e.data.spaceId, e.revision, ctx, (s) => ({
        ...s,
        parent: e.data.parent,
        position: e.data.position,
        visibility: visibilityIn(e.data.parent, s.visibility),
        updatedAt: e.data.movedAt,
      }));
    },
    SpaceTransferred: async (e, ctx) => {
      await change(e.data.spaceId, e.revision, ctx, (s) => ({
        ...s,
        organization: e.data.organization,
        parent: e.data.parent,
        position: e.data.position,
        visibility: visibilityIn(e.data.parent, s.visibility),
        updatedAt: e.data.transferredAt,
      }));
    },
    ChangeRequestCreated: async (e, ctx) => {
      await countChangeRequests(ctx, e.data.spaceId, (s) => ({
        ...s,
        changeRequests: s.changeRequests + 1,
        ...statusCount(s, e.data.status, +1),
      }));
    },
    ChangeRequestUpdated: async (e, ctx) => {
      const { spaceId, changes, previousStatus } = e.data;
      const { status } = changes;
      if (status === undefined) return;
      await countChangeRequests(ctx, spaceId, (s) => ({
        ...s,
        ...statusCount(s, previousStatus, -1),
        ...statusCount(s, status, +1),
      }));
    },
    ChangeRequestMerged: async (e, ctx) => {
      const { spaceId, revision, previousStatus, mergedAt } = e.data;
      await countChangeRequests(ctx, spaceId, (s) => ({
        ...s,
        ...statusCount(s, previousStatus, -1),
        revision: revision.id,
        root: revision.root,
        updatedAt: mergedAt,
      }));
    },
    CollectionTransferred: async (e, ctx) => {
      const { organization, contents, transferredAt } = e.data;
      for (const id of contents.spaces) {
        const space = await ctx.get(SPACES, id);
        if (space) await ctx.put(SPACES, { ...space, organization, updatedAt: transferredAt });
      }
    },
    CollectionDeleted: async (e, ctx) => {
      const { collectionId, parent, deletedAt } = e.data;
      for (const space of await ctx.find(SPACES, { parent: collectionId })) {
        const visibility = visibilityIn(parent, space.visibility);
        await ctx.put(SPACES, { ...space, parent, visibility, updatedAt: deletedAt });
      }
    },
  },
);

/** The space counter of change requests in `status`, moved by `delta` (archived ones have none). */
function statusCount(space: SpaceDoc, status: string, delta: number): Partial<SpaceDoc> {
  if (status === 'open') return { changeRequestsOpen: space.changeRequestsOpen + delta };
  if (status === 'draft') return { changeRequestsDraft: space.changeRequestsDraft + delta };
  return {};
}

/** Changes from the space's content stream: the space's own stream revision (its ETag) stays. */
async function countChangeRequests(
  ctx: Parameters<typeof spaceProjection.apply>[1],
  spaceId: string,
  update: (doc: SpaceDoc) => SpaceDoc,
): Promise<void> {
  const doc = await ctx.get(SPACES, spaceId);
  if (doc) await ctx.put(SPACES, update(doc));
}

async function change(
  spaceId: string,
  streamRevision: number,
  ctx: Parameters<typeof spaceProjection.apply>[1],
  update: (doc: SpaceDoc) => SpaceDoc,
): Promise<void> {
  const doc = await ctx.get(SPACES, spaceId);
  if (!doc) return;
  // `update` made a new document: set the revision on it rather than copy it again (a rebuild does this a million times).
  const next = update(doc);
  next.streamRevision = streamRevision;
  await ctx.put(SPACES, next);
}
