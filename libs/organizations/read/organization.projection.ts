import { memberKey } from '@app/platform/auth/member-key';
import { projection } from '@app/platform/projector/projection';
import type { Doc } from '@app/platform/readstore/read-store.port';

export interface OrganizationDoc extends Doc {
  title: string;
  emailDomains: string[];
  createdAt: string;
}

/** Organizations and memberships (`members`, keyed `<organization>:<user>`, the lookup every request makes). */
export const organizationProjection = projection(
  'organizations',
  [
    { collection: 'members', fields: ['userId', 'organization'] },
    { collection: 'members', fields: ['organization', 'joinedAt'] },
  ],
  {
    OrganizationCreated: async (e, ctx) => {
      await ctx.put('organizations', {
        id: e.data.organizationId,
        title: e.data.title,
        emailDomains: e.data.emailDomains,
        createdAt: e.data.createdAt,
      });
    },
    MemberAdded: async (e, ctx) => {
      await ctx.put('members', {
        id: memberKey(e.data.organizationId, e.data.userId),
        organization: e.data.organizationId,
        userId: e.data.userId,
        role: e.data.role,
        joinedAt: e.data.joinedAt,
      });
    },
    MemberRoleChanged: async (e, ctx) => {
      const id = memberKey(e.data.organizationId, e.data.userId);
      const member = await ctx.get('members', id);
      if (member) await ctx.put('members', { ...member, role: e.data.role });
    },
  },
  ['organizations', 'members'],
);
