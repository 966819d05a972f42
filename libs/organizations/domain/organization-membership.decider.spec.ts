import { spec } from '@app/platform/domain/decider.testing';
import type { Role } from '@app/platform/domain/roles';
import { type OrganizationEvent, organizationDecider, SEEN_EVERY_MS } from './organization.decider';

/** The membership commands of the organization aggregate: removal, roles, SSO, activity and admission. */
const t0 = Date.parse('2026-01-01T00:00:00Z');
const t1 = t0 + 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

const organizationCreated: OrganizationEvent = {
  type: 'OrganizationCreated',
  data: { organizationId: 'org1', title: 'Acme', emailDomains: [], createdBy: 'alice', createdAt: iso(t0) },
};
const memberAdded = (userId: string, role: Role): OrganizationEvent => ({
  type: 'MemberAdded',
  data: { organizationId: 'org1', userId, role, joinedAt: iso(t0) },
});
const removed = (userId: string): OrganizationEvent => ({
  type: 'MemberRemoved',
  data: { organizationId: 'org1', userId, removedAt: iso(t1) },
});
const seen = (userId: string, at: number): OrganizationEvent => ({
  type: 'MemberSeen',
  data: { organizationId: 'org1', userId, seenAt: iso(at) },
});

const withBob = [organizationCreated, memberAdded('alice', 'admin'), memberAdded('bob', 'read')];
const twoAdmins = [...withBob, memberAdded('carol', 'admin')];

const organization = spec(organizationDecider);

describe('organization decider: memberships', () => {
  describe('changes an admin asks for (`by`), decided on the stream as it stands', () => {
    const roleChanged = (userId: string, role: Role | null): OrganizationEvent => ({
      type: 'MemberRoleChanged',
      data: { organizationId: 'org1', userId, role, changedAt: iso(t1) },
    });
    // Carol was an admin when her request was authorized; Alice's demotion of her was appended first.
    const carolDemoted = [...twoAdmins, roleChanged('carol', 'read')];

    it('refuses them once their author is no longer an admin', () => {
      for (const command of [
        { type: 'ChangeMemberRole', userId: 'bob', role: 'admin', at: t1, by: 'carol' },
        { type: 'RemoveMember', userId: 'bob', at: t1, by: 'carol' },
        { type: 'SetMemberAsSso', userId: 'bob', at: t1, by: 'carol' },
        { type: 'UpdateOrganization', changes: { title: 'Carol Inc' }, at: t1, by: 'carol' },
      ] as const)
        organization
          .given(carolDemoted)
          .when(command)
          .thenThrows('forbidden', /no longer is/);
      organization
        .given([...twoAdmins, removed('carol')])
        .when({ type: 'ChangeMemberRole', userId: 'bob', role: 'admin', at: t1, by: 'carol' })
        .thenThrows('forbidden', /admin/);
    });

    it('decides them as before while their author is an admin, and lets anyone leave', () => {
      organization
        .given(twoAdmins)
        .when({ type: 'ChangeMemberRole', userId: 'bob', role: 'edit', at: t1, by: 'carol' })
        .thenEmits([roleChanged('bob', 'edit')]);
      organization
        .given(carolDemoted)
        .when({ type: 'RemoveMember', userId: 'carol', at: t1, by: 'carol' })
        .thenEmits([removed('carol')]);
      // The command line and jobs name no author: their authority is not a member's role.
      organization
        .given(carolDemoted)
        .when({ type: 'ChangeMemberRole', userId: 'bob', role: 'edit', at: t1 })
        .thenEmits([roleChanged('bob', 'edit')]);
    });
  });

  describe('RemoveMember', () => {
    it('removes a member', () => {
      const state = organization
        .given(withBob)
        .when({ type: 'RemoveMember', userId: 'bob', at: t1 })
        .thenEmits([removed('bob')]);
      expect(state).toMatchObject({ members: { alice: 'admin' } });
    });

    it('removes an admin while another admin remains', () => {
      organization
        .given(twoAdmins)
        .when({ type: 'RemoveMember', userId: 'alice', at: t1 })
        .thenEmits([removed('alice')]);
    });

    it('rejects removing the last admin', () => {
      organization
        .given(withBob)
        .when({ type: 'RemoveMember', userId: 'alice', at: t1 })
        .thenThrows('conflict', /last admin/);
    });

    it('rejects removing someone who is not a member, or no longer is', () => {
      organization
        .given(withBob)
        .when({ type: 'RemoveMember', userId: 'dave', at: t1 })
        .thenThrows('not_found', /Member/);
      organization
        .given([...withBob, removed('bob')])
        .when({ type: 'RemoveMember', userId: 'bob', at: t1 })
        .thenThrows('not_found', /Member/);
    });

    it('rejects removing from an organization that does not exist', () => {
      organization
        .when({ type: 'RemoveMember', userId: 'bob', at: t1 })
        .thenThrows('not_found', /Organization/);
    });

    it('lets a removed member be added again', () => {
      organization
        .given([...withBob, removed('bob')])
        .when({ type: 'AddMember', userId: 'bob', role: 'edit', at: t1 })
        .thenEmits([
          {
            type: 'MemberAdded',
            data: { organizationId: 'org1', userId: 'bob', role: 'edit', joinedAt: iso(t1) },
          },
        ]);
    });
  });

  describe('ChangeMemberRole', () => {
    it('makes a member a guest with a null role', () => {
      const state = organization
        .given(withBob)
        .when({ type: 'ChangeMemberRole', userId: 'bob', role: null, at: t1 })
        .thenEmits([
          {
            type: 'MemberRoleChanged',
            data: { organizationId: 'org1', userId: 'bob', role: null, changedAt: iso(t1) },
          },
        ]);
      expect(state).toMatchObject({ members: { bob: null } });
    });

    it('keeps a guest a member: a guest cannot be added twice', () => {
      organization
        .given([
          ...withBob,
          {
            type: 'MemberRoleChanged',
            data: { organizationId: 'org1', userId: 'bob', role: null, changedAt: iso(t1) },
          },
        ])
        .when({ type: 'AddMember', userId: 'bob', role: 'read', at: t1 })
        .thenThrows('conflict', /already a member/);
    });

    it('rejects demoting the last admin, to a role or to guest', () => {
      organization
        .given(withBob)
        .when({ type: 'ChangeMemberRole', userId: 'alice', role: 'create', at: t1 })
        .thenThrows('conflict', /last admin/);
      organization
        .given(withBob)
        .when({ type: 'ChangeMemberRole', userId: 'alice', role: null, at: t1 })
        .thenThrows('conflict', /last admin/);
    });

    it('demotes an admin while another admin remains', () => {
      organization
        .given(twoAdmins)
        .when({ type: 'ChangeMemberRole', userId: 'alice', role: 'read', at: t1 })
        .thenEmits([
          {
            type: 'MemberRoleChanged',
            data: { organizationId: 'org1', userId: 'alice', role: 'read', changedAt: iso(t1) },
          },
        ]);
    });
  });

  describe('SetMemberAsSso', () => {
    it('sets a member as an SSO member, once', () => {
      const setAsSso: OrganizationEvent = {
        type: 'MemberSetAsSso',
        data: { organizationId: 'org1', userId: 'bob', setAt: iso(t1) },
      };
      organization
        .given(withBob)
        .when({ type: 'SetMemberAsSso', userId: 'bob', at: t1 })
        .thenEmits([setAsSso]);
      organization
        .given([...withBob, setAsSso])
        .when({ type: 'SetMemberAsSso', userId: 'bob', at: t1 })
        .thenNothing();
    });

    it('rejects someone who is not a member, and an organization that does not exist', () => {
      organization
        .given(withBob)
        .when({ type: 'SetMemberAsSso', userId: 'dave', at: t1 })
        .thenThrows('not_found', /Member/);
      organization
        .when({ type: 'SetMemberAsSso', userId: 'bob', at: t1 })
        .thenThrows('not_found', /Organization/);
    });
  });

  describe('RecordMemberSeen', () => {
    it('records the first sighting, then at most one per interval', () => {
      organization
        .given(withBob)
        .when({ type: 'RecordMemberSeen', userId: 'bob', at: t1 })
        .thenEmits([seen('bob', t1)]);
      organization
        .given([...withBob, seen('bob', t1)])
        .when({ type: 'RecordMemberSeen', userId: 'bob', at: t1 + SEEN_EVERY_MS - 1 })
        .thenNothing();
      organization
        .given([...withBob, seen('bob', t1)])
        .when({ type: 'RecordMemberSeen', userId: 'bob', at: t1 + SEEN_EVERY_MS })
        .thenEmits([seen('bob', t1 + SEEN_EVERY_MS)]);
    });

    it('rejects someone who is not a member, and an organization that does not exist', () => {
      organization
        .given(withBob)
        .when({ type: 'RecordMemberSeen', userId: 'dave', at: t1 })
        .thenThrows('not_found', /Member/);
      organization
        .when({ type: 'RecordMemberSeen', userId: 'bob', at: t1 })
        .thenThrows('not_found', /Organization/);
    });
  });

  /** How an invite admits someone: through the organization's aggregate, so every view sees the member. */
  describe('AdmitMember', () => {
    const created: OrganizationEvent = {
      type: 'OrganizationCreated',
      data: { organizationId: 'org1', title: 'Org', emailDomains: [], createdBy: 'u1', createdAt: iso(t0) },
    };
    const added = (userId: string, role: 'admin' | 'read', invite?: string): OrganizationEvent => ({
      type: 'MemberAdded',
      data: { organizationId: 'org1', userId, role, joinedAt: iso(t0), ...(invite ? { invite } : {}) },
    });
    const admit = {
      type: 'AdmitMember' as const,
      userId: 'u2',
      role: 'read' as const,
      invite: 'inv1',
      at: t0,
    };

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
});
