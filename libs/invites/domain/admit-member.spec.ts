import { type OrganizationEvent, organizationDecider } from '@app/organizations/domain/organization.decider';
import { spec } from '@app/platform/domain/decider.testing';

const t0 = Date.parse('2026-01-01T00:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const created: OrganizationEvent = {
  type: 'OrganizationCreated',
  data: { organizationId: 'org1', title: 'Org', emailDomains: [], createdBy: 'u1', createdAt: iso(t0) },
};
const added = (userId: string, role: 'admin' | 'read', invite?: string): OrganizationEvent => ({
  type: 'MemberAdded',
  data: { organizationId: 'org1', userId, role, joinedAt: iso(t0), ...(invite ? { invite } : {}) },
});

const organization = spec(organizationDecider);
const admit = { type: 'AdmitMember' as const, userId: 'u2', role: 'read' as const, invite: 'inv1', at: t0 };

/** How an invite admits someone: through the organization's aggregate, so every view sees the member. */
describe('AdmitMember (organization decider)', () => {
  it('adds the user with the invite that admitted them', () => {
    organization
      .given([created, added('u1', 'admin')])
      .when(admit)
      .thenEmits([added('u2', 'read', 'inv1')]);
  });

  it('changes nothing for a member, whatever the invite role', () => {
    organization
      .given([created, added('u1', 'admin')])
      .when({ ...admit, userId: 'u1', role: 'read' })
      .thenNothing();
  });

  it('rejects an organization that does not exist', () => {
    organization.when(admit).thenThrows('not_found');
  });
});
