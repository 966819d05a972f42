import type { CollectionEvent } from '@app/collections/domain/collection.decider';
import type { Hash } from '@app/documents/tree/hash';
import { type ProjectionContext, projection } from '@app/platform/projector/projection';
import { collectionName, type Doc } from '@app/platform/readstore/read-store.port';
import type { SpaceEvent } from '@app/spaces/domain/space.decider';
import type { ChangeRequestStatus, SpaceContentEvent } from '../domain/space-content.decider';

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
}

/** One contributor of one change request, so that a list can be filtered by contributor. */
export interface ContributionDoc extends Doc {
  space: string;
  user: string;
  changeRequest: string;
  status: ChangeRequestStatus;
  number: number;
}

export const CHANGE_REQUESTS = collectionName<ChangeRequestDoc>('change_requests');
export const CONTRIBUTIONS = collectionName<ContributionDoc>('change_request_contributions');

type Ctx = ProjectionContext;

/** Change requests, kept in their space's organization; their contributors, for the list filter. */
export const changeRequestProjection = projection<SpaceContentEvent | SpaceEvent | CollectionEvent>(
  'change-requests',
  [
    { collection: CHANGE_REQUESTS, fields: ['space', 'status', 'number'] },
    { collection: CHANGE_REQUESTS, fields: ['space', 'number'] },
    { collection: CHANGE_REQUESTS, fields: ['organization', 'status', 'createdAt'] },
    { collection: CONTRIBUTIONS, fields: ['space', 'user', 'status', 'number'] },
    { collection: CONTRIBUTIONS, fields: ['changeRequest'] },
  ],
  {
    ChangeRequestCreated: async (e, ctx) => {
      const d = e.data;
      await ctx.put(CHANGE_REQUESTS, {
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
      });
    },
    ChangeRequestUpdated: async (e, ctx) => {
      const d = e.data;
      await change(ctx, d.changeRequestId, (cr) => ({ ...cr, ...d.changes, updatedAt: d.updatedAt }));
    },
    ChangeRequestContentUpdated: async (e, ctx) => {
      const d = e.data;
      const user = e.metadata.actor.userId;
      await change(ctx, d.changeRequestId, (cr) => ({
        ...cr,
        revision: d.revision.id,
        root: d.revision.root,
        updatedAt: d.updatedAt,
        contributors: user && !cr.contributors.includes(user) ? [...cr.contributors, user] : cr.contributors,
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
    SpaceTransferred: async (e, ctx) => {
      await moveOrganization(ctx, [e.data.spaceId], e.data.organization);
    },
    CollectionTransferred: async (e, ctx) => {
      await moveOrganization(ctx, e.data.contents.spaces, e.data.organization);
    },
  },
);

/**
 * Applies a change and writes the contributions' copies of its status again, every one of them: after
 * a crash between the two writes, the change request read back is already changed, so comparing it with
 * the change would skip the contributions that were not written.
 */
async function change(ctx: Ctx, id: string, update: (cr: ChangeRequestDoc) => ChangeRequestDoc) {
  const before = await ctx.get(CHANGE_REQUESTS, id);
  if (!before) return;
  const after = update(before);
  after.version = before.version + 1;
  await ctx.put(CHANGE_REQUESTS, after);
  for (const user of after.contributors) {
    await ctx.put(CONTRIBUTIONS, {
      id: `${id}:${user}`,
      space: after.space,
      user,
      changeRequest: id,
      status: after.status,
      number: after.number,
    });
  }
}

async function moveOrganization(ctx: Ctx, spaces: string[], organization: string) {
  for (const space of spaces) {
    for (const cr of await ctx.find(CHANGE_REQUESTS, { space })) {
      await ctx.put(CHANGE_REQUESTS, { ...cr, organization });
    }
  }
}
