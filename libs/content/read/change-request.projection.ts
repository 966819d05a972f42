import type { CollectionEvent } from '@app/collections/domain/collection.decider';
import type { CommentEvent } from '@app/comments/domain/comment.decider';
import type { Document } from '@app/documents/document';
import type { Hash } from '@app/documents/tree/hash';
import { type Projection, type ProjectionContext, projection } from '@app/platform/projector/projection';
import { collectionName, type Doc } from '@app/platform/readstore/read-store.port';
import type { SpaceEvent } from '@app/spaces/domain/space.decider';
import type {
  ChangeRequestLink,
  ChangeRequestStatus,
  SpaceContentEvent,
} from '../domain/space-content.decider';

export interface ChangeRequestDoc extends Doc {
  space: string;
  organization: string;
  number: number;
  status: ChangeRequestStatus;
  subject: string;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
  /** The active revision and its content root. */
  revision: string;
  root: Hash;
  revisionInitial: string;
  /** The space revision the content is based on: the initial one, or the last one updated from. */
  base: string;
  revisionMergedAncestor: string | null;
  revisionMerged: string | null;
  mergedBy: string | null;
  mergedAt: string | null;
  /** Counts the change request's changes: its ETag. */
  version: number;
  comments: number;
  /** Users who changed its content, in the order they first did. */
  contributors: string[];
  /** Users asked to review and who have not reviewed since (absent in views from before it was kept). */
  requestedReviewers?: string[];
  /** GitBook's `JSONDocument`, once an update gave one. */
  description?: Document;
  links?: ChangeRequestLink[];
}

/**
 * A person's part in one change request, with the change request's fields the lists filter and sort on,
 * so that a list can be filtered by contributor or requested reviewer: its `creator` (one for every
 * change request, `system` when no user created it), each `contributor`, each requested `reviewer`.
 */
export interface ParticipantDoc extends Doc {
  role: ParticipantRole;
  user: string;
  changeRequest: string;
  space: string;
  organization: string;
  status: ChangeRequestStatus;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

export type ParticipantRole = 'creator' | 'contributor' | 'reviewer';

export const CHANGE_REQUESTS = collectionName<ChangeRequestDoc>('change_requests');
export const PARTICIPANTS = collectionName<ParticipantDoc>('change_request_participants');
/** Where contributors were kept before `PARTICIPANTS`: emptied by the rebuild that fills that. */
const CONTRIBUTIONS = 'change_request_contributions';

export const participantKey = (changeRequest: string, role: ParticipantRole, user: string) =>
  `${changeRequest}:${role}:${user}`;

type Ctx = ProjectionContext;

const ORDERS = ['updatedAt', 'createdAt'];
const indexes = [
  { collection: CHANGE_REQUESTS, fields: ['space', 'number'] },
  ...ORDERS.flatMap((order) => [
    { collection: CHANGE_REQUESTS, fields: ['space', 'status', order] },
    { collection: CHANGE_REQUESTS, fields: ['organization', 'status', order] },
    { collection: PARTICIPANTS, fields: ['user', 'role', 'space', 'status', order] },
    { collection: PARTICIPANTS, fields: ['user', 'role', 'organization', 'status', order] },
  ]),
];

/**
 * Change requests, kept in their space's organization; their participants, for the lists' filters.
 * Views from before the participants were kept have change requests and no participant: the projection
 * is then built again from the log at start-up (`backfillWhen`), which also empties the contributions
 * kept before.
 */
export const changeRequestProjection: Projection = {
  ...changeRequests(),
  backfillWhen: { own: PARTICIPANTS, witnesses: [CHANGE_REQUESTS] },
};

function changeRequests() {
  return projection<SpaceContentEvent | SpaceEvent | CollectionEvent | CommentEvent>(
    'change-requests',
    indexes,
    {
      ChangeRequestCreated: async (e, ctx) => {
        const d = e.data;
        const doc: ChangeRequestDoc = {
          id: d.changeRequestId,
          space: d.spaceId,
          organization: d.organization,
          number: d.number,
          status: d.status,
          subject: d.subject,
          createdBy: d.createdBy,
          createdAt: d.createdAt,
          updatedAt: d.createdAt,
          revision: d.revisionInitial.id,
          root: d.revisionInitial.root,
          revisionInitial: d.revisionInitial.id,
          base: d.revisionInitial.id,
          revisionMergedAncestor: null,
          revisionMerged: null,
          mergedBy: null,
          mergedAt: null,
          version: 0,
          comments: 0,
          contributors: [],
          requestedReviewers: [],
        };
        await ctx.put(CHANGE_REQUESTS, doc);
        await writeParticipants(ctx, doc);
      },
      ChangeRequestUpdated: async (e, ctx) => {
        const d = e.data;
        await change(ctx, d.changeRequestId, (cr) => ({ ...cr, ...d.changes, updatedAt: d.updatedAt }));
      },
      // Reviews change the change request's version (its ETag), as they do in the decider.
      ChangeRequestReviewersRequested: async (e, ctx) => {
        const { changeRequestId, users } = e.data;
        await change(ctx, changeRequestId, (cr) => {
          const asked = cr.requestedReviewers ?? [];
          return { ...cr, requestedReviewers: [...asked, ...users.filter((u) => !asked.includes(u))] };
        });
      },
      ChangeRequestReviewSubmitted: async (e, ctx) => {
        await notAsked(ctx, e.data.changeRequestId, e.data.reviewer);
      },
      ChangeRequestReviewerRemoved: async (e, ctx) => {
        await notAsked(ctx, e.data.changeRequestId, e.data.user);
      },
      ChangeRequestContentUpdated: async (e, ctx) => {
        const d = e.data;
        const user = e.metadata.actor.userId;
        await change(ctx, d.changeRequestId, (cr) => ({
          ...cr,
          revision: d.revision.id,
          root: d.revision.root,
          updatedAt: d.updatedAt,
          contributors:
            user && !cr.contributors.includes(user) ? [...cr.contributors, user] : cr.contributors,
        }));
      },
      ChangeRequestRebased: async (e, ctx) => {
        const d = e.data;
        await change(ctx, d.changeRequestId, (cr) => ({
          ...cr,
          revision: d.revision.id,
          root: d.revision.root,
          base: d.mergedAncestor.id,
          revisionMergedAncestor: d.mergedAncestor.id,
          updatedAt: d.updatedAt,
        }));
      },
      ChangeRequestMerged: async (e, ctx) => {
        const d = e.data;
        await change(ctx, d.changeRequestId, (cr) => ({
          ...cr,
          status: 'merged',
          revisionMerged: d.revision.id,
          mergedBy: d.mergedBy,
          mergedAt: d.mergedAt,
          updatedAt: d.mergedAt,
        }));
      },
      // The open comments of each change request; the count is no field of its ETag.
      CommentCreated: async (e, ctx) => openComments(ctx, e.data.changeRequestId, +1),
      CommentResolved: async (e, ctx) => openComments(ctx, e.data.changeRequestId, -1),
      CommentReopened: async (e, ctx) => openComments(ctx, e.data.changeRequestId, +1),
      CommentDeleted: async (e, ctx) => {
        if (e.data.open) await openComments(ctx, e.data.changeRequestId, -1);
      },
      SpaceTransferred: async (e, ctx) => {
        await moveOrganization(ctx, [e.data.spaceId], e.data.organization);
      },
      CollectionTransferred: async (e, ctx) => {
        await moveOrganization(ctx, e.data.contents.spaces, e.data.organization);
      },
    },
    [CHANGE_REQUESTS, PARTICIPANTS, CONTRIBUTIONS],
  );
}

/** Moves a change request's count of open comments; a comment on the space itself has none. */
async function openComments(ctx: Ctx, changeRequest: string | undefined, delta: number) {
  const cr = changeRequest ? await ctx.get(CHANGE_REQUESTS, changeRequest) : null;
  if (cr) await ctx.put(CHANGE_REQUESTS, { ...cr, comments: cr.comments + delta });
}

/** The user is no longer asked to review: they reviewed, or were removed. */
async function notAsked(ctx: Ctx, changeRequest: string, user: string) {
  await change(ctx, changeRequest, (cr) => ({
    ...cr,
    requestedReviewers: (cr.requestedReviewers ?? []).filter((u) => u !== user),
  }));
  // Named by the event, not found by comparing documents, so that a replay after a crash deletes it too.
  await ctx.delete(PARTICIPANTS, participantKey(changeRequest, 'reviewer', user));
}

/**
 * Applies a change and writes the participants' copies of its fields again, every one of them: after
 * a crash between the two writes, the change request read back is already changed, so comparing it with
 * the change would skip the participants that were not written.
 */
async function change(ctx: Ctx, id: string, update: (cr: ChangeRequestDoc) => ChangeRequestDoc) {
  const before = await ctx.get(CHANGE_REQUESTS, id);
  if (!before) return;
  const after = update(before);
  after.version = before.version + 1;
  await ctx.put(CHANGE_REQUESTS, after);
  await writeParticipants(ctx, after);
}

async function writeParticipants(ctx: Ctx, cr: ChangeRequestDoc) {
  const parts: [ParticipantRole, string][] = [
    ['creator', cr.createdBy ?? 'system'],
    ...cr.contributors.map((user): [ParticipantRole, string] => ['contributor', user]),
    ...(cr.requestedReviewers ?? []).map((user): [ParticipantRole, string] => ['reviewer', user]),
  ];
  for (const [role, user] of parts) {
    await ctx.put(PARTICIPANTS, {
      id: participantKey(cr.id, role, user),
      role,
      user,
      changeRequest: cr.id,
      space: cr.space,
      organization: cr.organization,
      status: cr.status,
      createdBy: cr.createdBy,
      createdAt: cr.createdAt,
      updatedAt: cr.updatedAt,
    });
  }
}

async function moveOrganization(ctx: Ctx, spaces: string[], organization: string) {
  for (const space of spaces) {
    for (const cr of await ctx.find(CHANGE_REQUESTS, { space })) {
      const moved = { ...cr, organization };
      await ctx.put(CHANGE_REQUESTS, moved);
      await writeParticipants(ctx, moved);
    }
  }
}
