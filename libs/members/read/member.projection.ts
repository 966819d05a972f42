import type { OrganizationEvent } from '@app/organizations/domain/organization.decider';
import { memberKey } from '@app/platform/auth/member-key';
import { documents, type ProjectionContext, projection } from '@app/platform/projector/projection';
import { collectionName, type Doc } from '@app/platform/readstore/read-store.port';

/**
 * What a membership has beyond its role, keyed as `members` (`<organization>:<user>`). Apart from the
 * `members` view on purpose: every request reads that one through the access cache, which drops all it
 * holds when it changes, so a member's activity (recorded up to once a minute) must not write there.
 */
export interface MemberDetailsDoc extends Doc {
  organization: string;
  userId: string;
  sso?: boolean;
  lastSeenAt?: string;
}

export const MEMBER_DETAILS = collectionName<MemberDetailsDoc>('member_details');

async function details(
  ctx: ProjectionContext,
  organization: string,
  userId: string,
): Promise<MemberDetailsDoc> {
  return (
    (await ctx.get(MEMBER_DETAILS, memberKey(organization, userId))) ?? {
      id: memberKey(organization, userId),
      organization,
      userId,
    }
  );
}

export const memberDetailsProjection = projection<OrganizationEvent>(
  'member-details',
  [{ collection: MEMBER_DETAILS, fields: ['organization', 'lastSeenAt'] }],
  {
    MemberSeen: async (e, ctx) => {
      const doc = await details(ctx, e.data.organizationId, e.data.userId);
      await ctx.put(MEMBER_DETAILS, { ...doc, lastSeenAt: e.data.seenAt });
    },
    MemberSetAsSso: async (e, ctx) => {
      const doc = await details(ctx, e.data.organizationId, e.data.userId);
      await ctx.put(MEMBER_DETAILS, { ...doc, sso: true });
    },
    MemberRemoved: documents(MEMBER_DETAILS).delete((e) => memberKey(e.data.organizationId, e.data.userId)),
  },
  [MEMBER_DETAILS],
);
