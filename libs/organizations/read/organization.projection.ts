import { MEMBERS } from '@app/platform/auth/auth-views';
import { memberKey } from '@app/platform/auth/member-key';
import { projection } from '@app/platform/projector/projection';
import { collectionName, type Doc } from '@app/platform/readstore/read-store.port';

export interface OrganizationDoc extends Doc {
  title: string;
  emailDomains: string[];
  createdAt: string;
}

export const ORGANIZATIONS = collectionName<OrganizationDoc>('organizations');

/** Organizations and memberships (`members`, keyed `<organization>:<user>`, the lookup every request makes). */
export const organizationProjection = projection(
  'organizations',
  [
    { collection: MEMBERS, fields: ['userId', 'organization'] },
    { collection: MEMBERS, fields: ['organization', 'joinedAt'] },
  ],
  {
    OrganizationCreated: async (e, ctx) => {
      await ctx.put(ORGANIZATIONS, {
        id: e.data.organizationId,
        title: e.data.title,
        emailDomains: e.data.emailDomains,
        createdAt: e.data.createdAt,
      });
    },
    MemberAdded: async (e, ctx) => {
      await ctx.put(MEMBERS, {
        id: memberKey(e.data.organizationId, e.data.userId),
        organization: e.data.organizationId,
        userId: e.data.userId,
        role: e.data.role,
        joinedAt: e.data.joinedAt,
      });
    },
    MemberRoleChanged: async (e, ctx) => {
      const id = memberKey(e.data.organizationId, e.data.userId);
      const member = await ctx.get(MEMBERS, id);
      if (member) await ctx.put(MEMBERS, { ...member, role: e.data.role });
    },
  },
  [ORGANIZATIONS, MEMBERS],
);
