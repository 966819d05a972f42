import { MEMBERS } from '@app/platform/auth/auth-views';
import { memberKey } from '@app/platform/auth/member-key';
import { documents, projection } from '@app/platform/projector/projection';
import { collectionName, type Doc } from '@app/platform/readstore/read-store.port';
import type { OrganizationEvent, OrganizationSettings } from '../domain/organization.decider';

/** An organization; the settings an update sets are absent until one does. */
export interface OrganizationDoc extends Doc, Partial<Omit<OrganizationSettings, 'title' | 'emailDomains'>> {
  title: string;
  emailDomains: string[];
  createdAt: string;
}

/** One email domain of one organization, keyed `<domain>:<organization>`: who may join by their address. */
export interface EmailDomainDoc extends Doc {
  domain: string;
  organization: string;
}

export const ORGANIZATIONS = collectionName<OrganizationDoc>('organizations');
export const EMAIL_DOMAINS = collectionName<EmailDomainDoc>('organization-email-domains');

const domainKey = (domain: string, organization: string) => `${domain}:${organization}`;

/**
 * Organizations and memberships (`members`, keyed `<organization>:<user>`, the lookup every request makes),
 * and the organizations of each email domain.
 */
export const organizationProjection = projection<OrganizationEvent>(
  'organizations',
  [
    { collection: MEMBERS, fields: ['userId', 'organization'] },
    { collection: MEMBERS, fields: ['organization', 'joinedAt'] },
    { collection: ORGANIZATIONS, fields: ['hostname'] },
    { collection: EMAIL_DOMAINS, fields: ['domain', 'organization'] },
    { collection: EMAIL_DOMAINS, fields: ['organization'] },
  ],
  {
    OrganizationCreated: async (e, ctx) => {
      await ctx.put(ORGANIZATIONS, {
        id: e.data.organizationId,
        title: e.data.title,
        emailDomains: e.data.emailDomains,
        createdAt: e.data.createdAt,
      });
      for (const domain of e.data.emailDomains) {
        await ctx.put(EMAIL_DOMAINS, {
          id: domainKey(domain, e.data.organizationId),
          domain,
          organization: e.data.organizationId,
        });
      }
    },
    OrganizationUpdated: async (e, ctx) => {
      const { organizationId, changes } = e.data;
      const doc = await ctx.get(ORGANIZATIONS, organizationId);
      if (!doc) return;
      if (changes.emailDomains) {
        // From the index itself, not the organization's document, which a replay finds already updated.
        for (const entry of await ctx.find(EMAIL_DOMAINS, { organization: organizationId })) {
          if (!changes.emailDomains.includes(entry.domain)) await ctx.delete(EMAIL_DOMAINS, entry.id);
        }
        for (const domain of changes.emailDomains) {
          await ctx.put(EMAIL_DOMAINS, {
            id: domainKey(domain, organizationId),
            domain,
            organization: organizationId,
          });
        }
      }
      await ctx.put(ORGANIZATIONS, { ...doc, ...changes });
    },
    MemberAdded: documents(MEMBERS).put((e) => ({
      id: memberKey(e.data.organizationId, e.data.userId),
      organization: e.data.organizationId,
      userId: e.data.userId,
      role: e.data.role,
      joinedAt: e.data.joinedAt,
    })),
    MemberRoleChanged: documents(MEMBERS).update(
      (e) => memberKey(e.data.organizationId, e.data.userId),
      (member, e) => ({ ...member, role: e.data.role }),
    ),
    MemberRemoved: documents(MEMBERS).delete((e) => memberKey(e.data.organizationId, e.data.userId)),
  },
  [ORGANIZATIONS, MEMBERS, EMAIL_DOMAINS],
);
