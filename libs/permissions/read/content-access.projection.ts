import type { CollectionEvent } from '@app/collections/domain/collection.decider';
import { COLLECTIONS } from '@app/collections/read/collection.projection';
import type { OrganizationEvent } from '@app/organizations/domain/organization.decider';
import {
  CONTENT_ACCESS,
  CONTENT_GRANTS,
  type ContentAccessDoc,
  type ContentGrantDoc,
} from '@app/platform/auth/auth-views';
import { accessBelow, type Grants } from '@app/platform/domain/content-access';
import type { DefaultLevel, Role } from '@app/platform/domain/roles';
import {
  documents,
  type Projection,
  type ProjectionContext,
  projection,
} from '@app/platform/projector/projection';
import type { SpaceEvent } from '@app/spaces/domain/space.decider';
import { SPACES } from '@app/spaces/read/space.projection';
import type { TeamEvent } from '@app/teams/domain/team.decider';
import type { GrantEvent, GrantTarget } from '../domain/grant.decider';

export { CONTENT_ACCESS, CONTENT_GRANTS, type ContentGrantDoc };

export const grantKey = (resource: string, grantee: 'user' | 'team', id: string) =>
  `${resource}:${grantee}:${id}`;

const NO_GRANTS: Grants = { users: {}, teams: {} };

/**
 * Stores `doc` with its access recomputed from its parent's, then does the same below it: a change of a
 * default level, a grant or a move is paid for once here, so a request reads one document (`Access`).
 */
async function refresh(ctx: ProjectionContext, doc: ContentAccessDoc): Promise<void> {
  const parent = doc.parent ? await ctx.get(CONTENT_ACCESS, doc.parent) : null;
  await ctx.put(CONTENT_ACCESS, {
    ...doc,
    ...accessBelow(parent ?? undefined, { defaultLevel: doc.defaultLevel, ...doc.own }),
  });
  if (doc.kind !== 'collection') return;
  for (const child of await ctx.find(CONTENT_ACCESS, { parent: doc.id })) await refresh(ctx, child);
}

async function change(
  ctx: ProjectionContext,
  id: string,
  update: (doc: ContentAccessDoc) => ContentAccessDoc,
): Promise<void> {
  const doc = await ctx.get(CONTENT_ACCESS, id);
  if (doc) await refresh(ctx, update(doc));
}

function created(
  kind: 'space' | 'collection',
  data: { id: string; organization: string; parent: string | null; defaultLevel: DefaultLevel },
): ContentAccessDoc {
  const { id, organization, parent, defaultLevel } = data;
  return { id, organization, kind, parent, defaultLevel, own: NO_GRANTS, membersLevel: null, ...NO_GRANTS };
}

/** The resource's own grants with one set or taken away. */
function withGrant(own: Grants, grantee: 'user' | 'team', id: string, role: Role | null): Grants {
  const field = grantee === 'user' ? 'users' : 'teams';
  const { [id]: _before, ...rest } = own[field];
  return { ...own, [field]: role ? { ...rest, [id]: role } : rest };
}

async function setGrant(
  ctx: ProjectionContext,
  target: GrantTarget,
  grantee: 'user' | 'team',
  granteeId: string,
  grant: { role: Role; grantedAt: string } | null,
): Promise<void> {
  const access = await ctx.get(CONTENT_ACCESS, target.resourceId);
  if (!access) return;
  const id = grantKey(target.resourceId, grantee, granteeId);
  if (grant) {
    const { kind, resourceId: resource } = target;
    const organization = access.organization;
    await ctx.put(CONTENT_GRANTS, { id, resource, kind, organization, grantee, granteeId, ...grant });
  } else {
    await ctx.delete(CONTENT_GRANTS, id);
  }
  await refresh(ctx, { ...access, own: withGrant(access.own, grantee, granteeId, grant?.role ?? null) });
}

const granted = ({ role, grantedAt }: { role: Role; grantedAt: string }) => ({ role, grantedAt });

/** Takes away every grant the query finds: those of a deleted team, or of a member who left. */
async function dropGrants(ctx: ProjectionContext, where: Partial<ContentGrantDoc>): Promise<void> {
  for (const grant of await ctx.find(CONTENT_GRANTS, where as Record<string, string>)) {
    const target = { kind: grant.kind, resourceId: grant.resource, organization: grant.organization };
    await setGrant(ctx, target, grant.grantee, grant.granteeId, null);
  }
}

/** A resource that is gone, with its grants. */
async function remove(ctx: ProjectionContext, id: string): Promise<void> {
  await ctx.delete(CONTENT_ACCESS, id);
  for (const grant of await ctx.find(CONTENT_GRANTS, { resource: id })) {
    await ctx.delete(CONTENT_GRANTS, grant.id);
  }
}

/** Moves resources to another organization, their grants' records with them. */
async function transfer(ctx: ProjectionContext, ids: readonly string[], organization: string) {
  for (const id of ids) {
    await documents(CONTENT_ACCESS).change(ctx, id, (doc) => ({ ...doc, organization }));
    for (const grant of await ctx.find(CONTENT_GRANTS, { resource: id })) {
      await ctx.put(CONTENT_GRANTS, { ...grant, organization });
    }
  }
}

/**
 * The resolved access of every space and collection (`CONTENT_ACCESS`, read by `Access` on every request
 * to content) and the grants made on them. It follows the structure (creations, moves, transfers,
 * deletions) and default levels from the collections' and spaces' events itself, so it reads only its
 * own documents.
 */
export const contentAccessProjection: Projection = {
  ...contentAccess(),
  // Installs from before the permission model have spaces but no access documents: built at start-up.
  backfillWhen: { own: CONTENT_ACCESS, witnesses: [SPACES, COLLECTIONS] },
};

function contentAccess() {
  return projection<CollectionEvent | SpaceEvent | GrantEvent | TeamEvent | OrganizationEvent>(
    'content-access',
    [
      { collection: CONTENT_ACCESS, fields: ['parent'] },
      { collection: CONTENT_GRANTS, fields: ['resource', 'grantee', 'grantedAt'] },
      { collection: CONTENT_GRANTS, fields: ['grantee', 'granteeId', 'organization'] },
    ],
    {
      CollectionCreated: (e, ctx) => refresh(ctx, created('collection', e.data)),
      SpaceCreated: (e, ctx) => refresh(ctx, created('space', e.data)),
      CollectionUpdated: async (e, ctx) => {
        const { defaultLevel } = e.data.changes;
        if (defaultLevel !== undefined)
          await change(ctx, e.data.collectionId, (doc) => ({ ...doc, defaultLevel }));
      },
      SpaceUpdated: async (e, ctx) => {
        const { defaultLevel } = e.data.changes;
        if (defaultLevel !== undefined)
          await change(ctx, e.data.spaceId, (doc) => ({ ...doc, defaultLevel }));
      },
      CollectionMoved: (e, ctx) =>
        change(ctx, e.data.collectionId, (doc) => ({ ...doc, parent: e.data.parent })),
      SpaceMoved: (e, ctx) => change(ctx, e.data.spaceId, (doc) => ({ ...doc, parent: e.data.parent })),
      CollectionTransferred: async (e, ctx) => {
        const { collectionId, organization, contents } = e.data;
        await transfer(ctx, [collectionId, ...contents.collections, ...contents.spaces], organization);
        await change(ctx, collectionId, (doc) => ({ ...doc, parent: null }));
      },
      SpaceTransferred: async (e, ctx) => {
        const { spaceId, organization, parent } = e.data;
        await transfer(ctx, [spaceId], organization);
        await change(ctx, spaceId, (doc) => ({ ...doc, parent }));
      },
      CollectionDeleted: async (e, ctx) => {
        // What the collection held goes to its parent, as in the collections' and spaces' views.
        for (const child of await ctx.find(CONTENT_ACCESS, { parent: e.data.collectionId })) {
          await refresh(ctx, { ...child, parent: e.data.parent });
        }
        await remove(ctx, e.data.collectionId);
      },
      SpacePurged: (e, ctx) => remove(ctx, e.data.spaceId),
      UserAccessGranted: (e, ctx) => setGrant(ctx, e.data, 'user', e.data.userId, granted(e.data)),
      UserAccessRevoked: (e, ctx) => setGrant(ctx, e.data, 'user', e.data.userId, null),
      TeamAccessGranted: (e, ctx) => setGrant(ctx, e.data, 'team', e.data.teamId, granted(e.data)),
      TeamAccessRevoked: (e, ctx) => setGrant(ctx, e.data, 'team', e.data.teamId, null),
      TeamDeleted: (e, ctx) => dropGrants(ctx, { grantee: 'team', granteeId: e.data.teamId }),
      MemberRemoved: (e, ctx) =>
        dropGrants(ctx, { grantee: 'user', granteeId: e.data.userId, organization: e.data.organizationId }),
    },
  );
}
