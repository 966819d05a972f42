import type { CollectionEvent } from '@app/collections/domain/collection.decider';
import type { CommentEvent } from '@app/comments/domain/comment.decider';
import type { SpaceContentEvent } from '@app/content/domain/space-content.decider';
import type { DefaultLevel } from '@app/platform/domain/roles';
import type { RecordedEvent } from '@app/platform/eventstore/event-store.port';
import { documents, type ProjectionContext, projection } from '@app/platform/projector/projection';
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
  /** URL of the space's icon; absent or null: none. */
  icon?: string | null;
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

const spaces = documents(SPACES);

/**
 * Spaces, including deleted ones until they are purged. The spaces a collection holds go with it to
 * another organization, and to its parent when it is deleted.
 */
export const spaceProjection = projection<SpaceEvent | SpaceContentEvent | CollectionEvent | CommentEvent>(
  'spaces',
  [
    { collection: SPACES, fields: ['organization', 'deleted', 'position'] },
    { collection: SPACES, fields: ['organization', 'parent', 'deleted', 'position'] },
    { collection: SPACES, fields: ['parent', 'deleted', 'position'] },
    { collection: SPACES, fields: ['deleted', 'purgeAfter'] },
  ],
  {
    SpaceCreated: spaces.put((e) => {
      const { duplicatedFrom: _d, ...data } = e.data;
      // The event's fields last: V8 adds fields listed after a spread one by one, ~10 µs a space.
      return {
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
      };
    }),
    SpaceUpdated: spaces.update(
      (e) => e.data.spaceId,
      (s, e) => ({ ...s, ...e.data.changes, updatedAt: e.data.updatedAt, streamRevision: e.revision }),
    ),
    SpaceDeleted: spaces.update(
      (e) => e.data.spaceId,
      (s, e) => ({
        ...s,
        deleted: true,
        deletedAt: e.data.deletedAt,
        purgeAfter: e.data.purgeAfter,
        deletion: { eventId: e.id, correlationId: e.metadata.correlationId },
        updatedAt: e.data.deletedAt,
        streamRevision: e.revision,
      }),
    ),
    SpaceRestored: spaces.update(
      (e) => e.data.spaceId,
      (s, e) => ({
        ...s,
        deleted: false,
        deletedAt: null,
        purgeAfter: null,
        deletion: null,
        updatedAt: e.data.restoredAt,
        streamRevision: e.revision,
      }),
    ),
    SpacePurged: spaces.delete((e) => e.data.spaceId),
    SpaceMoved: spaces.update(
      (e) => e.data.spaceId,
      (s, e) => ({
        ...s,
        parent: e.data.parent,
        position: e.data.position,
        visibility: visibilityIn(e.data.parent, s.visibility),
        updatedAt: e.data.movedAt,
        streamRevision: e.revision,
      }),
    ),
    SpaceTransferred: spaces.update(
      (e) => e.data.spaceId,
      (s, e) => ({
        ...s,
        organization: e.data.organization,
        parent: e.data.parent,
        position: e.data.position,
        visibility: visibilityIn(e.data.parent, s.visibility),
        updatedAt: e.data.transferredAt,
        streamRevision: e.revision,
      }),
    ),
    // Changes from the space's content stream: the space's own stream revision (its ETag) stays.
    ChangeRequestCreated: spaces.update(
      (e) => e.data.spaceId,
      (s, e) => ({ ...s, changeRequests: s.changeRequests + 1, ...statusCount(s, e.data.status, +1) }),
    ),
    ChangeRequestUpdated: async (e, ctx) => {
      const { spaceId, changes, previousStatus } = e.data;
      const { status } = changes;
      if (status === undefined) return;
      await spaces.change(ctx, spaceId, (s) => ({
        ...s,
        ...statusCount(s, previousStatus, -1),
        ...statusCount(s, status, +1),
      }));
    },
    ChangeRequestMerged: spaces.update(
      (e) => e.data.spaceId,
      (s, e) => ({
        ...s,
        ...statusCount(s, e.data.previousStatus, -1),
        revision: e.data.revision.id,
        root: e.data.revision.root,
        updatedAt: e.data.mergedAt,
      }),
    ),
    // The open comments of the space itself (a change request counts its own); its stream revision stays.
    CommentCreated: openComments(+1, (d) => !d.changeRequestId),
    CommentResolved: openComments(-1, (d) => !d.changeRequestId),
    CommentReopened: openComments(+1, (d) => !d.changeRequestId),
    CommentDeleted: openComments(-1, (d) => !d.changeRequestId && d.open),
    CollectionTransferred: async (e, ctx) => {
      const { organization, contents, transferredAt } = e.data;
      for (const id of contents.spaces) {
        await spaces.change(ctx, id, (space) => ({ ...space, organization, updatedAt: transferredAt }));
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

/** A handler moving the space's count of open comments by `delta` for the events `counts` picks. */
function openComments<D extends { spaceId: string }>(delta: number, counts: (data: D) => boolean) {
  return async (e: RecordedEvent<string, D>, ctx: ProjectionContext) => {
    if (counts(e.data))
      await spaces.change(ctx, e.data.spaceId, (s) => ({ ...s, comments: s.comments + delta }));
  };
}

/** The space counter of change requests in `status`, moved by `delta` (archived ones have none). */
function statusCount(space: SpaceDoc, status: string, delta: number): Partial<SpaceDoc> {
  if (status === 'open') return { changeRequestsOpen: space.changeRequestsOpen + delta };
  if (status === 'draft') return { changeRequestsDraft: space.changeRequestsDraft + delta };
  return {};
}
