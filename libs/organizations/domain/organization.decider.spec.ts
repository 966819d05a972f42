import { spec } from '@app/platform/domain/decider.testing';
import type { Role } from '@app/platform/domain/roles';
import {
  EMAIL_INVITE,
  type OrganizationChanges,
  type OrganizationCommand,
  type OrganizationEvent,
  organizationDecider,
  organizationStream,
  samlInvite,
  samlProviderOfInvite,
} from './organization.decider';

const t0 = Date.parse('2026-01-01T00:00:00Z');
const t1 = t0 + 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

const createOrganization = (title = 'Acme Docs'): OrganizationCommand => ({
  type: 'CreateOrganization',
  organizationId: 'org1',
  title,
  createdBy: 'alice',
  at: t0,
});

const organizationCreated = (title = 'Acme Docs'): OrganizationEvent => ({
  type: 'OrganizationCreated',
  data: { organizationId: 'org1', title, emailDomains: [], createdBy: 'alice', createdAt: iso(t0) },
});

const memberAdded = (userId: string, role: Role, at = t0): OrganizationEvent => ({
  type: 'MemberAdded',
  data: { organizationId: 'org1', userId, role, joinedAt: iso(at) },
});

const active = [organizationCreated(), memberAdded('alice', 'admin')];
const withBob = [...active, memberAdded('bob', 'read', t1)];

const organization = spec(organizationDecider);

describe('organization decider', () => {
  it('names the stream after the organization', () => {
    expect(organizationStream('org1')).toBe('organization-org1');
  });

  describe('AdmitMember', () => {
    const admit = (userId: string, invite: string, sso?: boolean): OrganizationCommand => ({
      type: 'AdmitMember',
      userId,
      role: 'read',
      invite,
      ...(sso ? { sso } : {}),
      at: t1,
    });
    const admitted = (invite: string): OrganizationEvent => ({
      type: 'MemberAdded',
      data: { organizationId: 'org1', userId: 'carol', role: 'read', joinedAt: iso(t1), invite },
    });
    const linksOff: OrganizationEvent = {
      type: 'OrganizationUpdated',
      data: { organizationId: 'org1', changes: { inviteLinks: false }, updatedAt: iso(t1) },
    };

    it('admits with a link, and nobody twice', () => {
      organization
        .given(active)
        .when(admit('carol', 'link1'))
        .thenEmits([admitted('link1')]);
      organization.given(withBob).when(admit('bob', 'link1')).thenNothing();
    });

    it('admits an SSO member in the same write, and leaves a member as they are', () => {
      organization
        .given(active)
        .when(admit('carol', EMAIL_INVITE, true))
        .thenEmits([
          admitted(EMAIL_INVITE),
          { type: 'MemberSetAsSso', data: { organizationId: 'org1', userId: 'carol', setAt: iso(t1) } },
        ]);
      organization
        .given(withBob)
        .when(admit('bob', EMAIL_INVITE, true))
        .thenNothing();
    });

    it('refuses a link while invite links are off, but still admits an email invite', () => {
      organization
        .given([...active, linksOff])
        .when(admit('carol', 'link1'))
        .thenThrows('forbidden', /inviteLinks/);
      organization
        .given([...active, linksOff])
        .when(admit('carol', EMAIL_INVITE))
        .thenEmits([admitted(EMAIL_INVITE)]);
    });

    it('admits through a SAML provider whether invite links are on or off', () => {
      organization
        .given([...active, linksOff])
        .when(admit('carol', samlInvite('idp1')))
        .thenEmits([admitted('saml:idp1')]);
      expect(samlProviderOfInvite('saml:idp1')).toBe('idp1');
      expect(samlProviderOfInvite('link1')).toBeUndefined();
      expect(samlProviderOfInvite(EMAIL_INVITE)).toBeUndefined();
    });
  });

  describe('CreateOrganization', () => {
    it('creates the organization and makes its creator an admin', () => {
      const state = organization
        .when(createOrganization())
        .thenEmits([organizationCreated(), memberAdded('alice', 'admin')]);
      expect(state).toStrictEqual({
        status: 'active',
        id: 'org1',
        title: 'Acme Docs',
        emailDomains: [],
        members: { alice: 'admin' },
      });
    });

    it('trims the title', () => {
      const state = organization
        .when(createOrganization('  Acme Docs \n'))
        .thenEmits([organizationCreated(), memberAdded('alice', 'admin')]);
      expect(state).toMatchObject({ title: 'Acme Docs' });
    });

    it.each([
      ['2 characters', 'ab', 'ab'],
      ['255 characters', 'x'.repeat(255), 'x'.repeat(255)],
      ['255 characters surrounded by spaces', `  ${'x'.repeat(255)}  `, 'x'.repeat(255)],
      ['2 characters surrounded by spaces', '  ab  ', 'ab'],
    ])('accepts a title of %s', (_label, title, stored) => {
      organization
        .when(createOrganization(title))
        .thenEmits([organizationCreated(stored), memberAdded('alice', 'admin')]);
    });

    it.each([
      ['empty', ''],
      ['only whitespace', '   '],
      ['1 character', 'a'],
      ['1 character once trimmed', '  a  '],
      ['256 characters', 'x'.repeat(256)],
    ])('rejects a title that is %s', (_label, title) => {
      organization.when(createOrganization(title)).thenThrows('invalid', /2 to 255/);
    });

    it('rejects creating an organization that already exists', () => {
      organization
        .given(active)
        .when(createOrganization())
        .thenThrows('conflict', /already exists/);
    });
  });

  describe('AddMember', () => {
    it('adds a member with a role', () => {
      const state = organization
        .given(active)
        .when({ type: 'AddMember', userId: 'bob', role: 'edit', at: t1 })
        .thenEmits([memberAdded('bob', 'edit', t1)]);
      expect(state).toMatchObject({ members: { alice: 'admin', bob: 'edit' } });
    });

    it('rejects adding someone who is already a member', () => {
      organization
        .given(withBob)
        .when({ type: 'AddMember', userId: 'bob', role: 'admin', at: t1 })
        .thenThrows('conflict', /already a member/);
    });

    it('rejects adding the creator again', () => {
      organization
        .given(active)
        .when({ type: 'AddMember', userId: 'alice', role: 'read', at: t1 })
        .thenThrows('conflict', /already a member/);
    });

    it('rejects adding a member to an organization that does not exist', () => {
      organization
        .when({ type: 'AddMember', userId: 'bob', role: 'read', at: t1 })
        .thenThrows('not_found', /Organization/);
    });
  });

  describe('ChangeMemberRole', () => {
    it("changes a member's role", () => {
      const state = organization
        .given(withBob)
        .when({ type: 'ChangeMemberRole', userId: 'bob', role: 'review', at: t1 })
        .thenEmits([
          {
            type: 'MemberRoleChanged',
            data: { organizationId: 'org1', userId: 'bob', role: 'review', changedAt: iso(t1) },
          },
        ]);
      expect(state).toMatchObject({ members: { alice: 'admin', bob: 'review' } });
    });

    it('emits nothing when the member already has the role', () => {
      organization
        .given(withBob)
        .when({ type: 'ChangeMemberRole', userId: 'bob', role: 'read', at: t1 })
        .thenNothing();
    });

    it('rejects changing the role of someone who is not a member', () => {
      organization
        .given(withBob)
        .when({ type: 'ChangeMemberRole', userId: 'carol', role: 'edit', at: t1 })
        .thenThrows('not_found', /Member/);
    });

    it('rejects changing a role in an organization that does not exist', () => {
      organization
        .when({ type: 'ChangeMemberRole', userId: 'bob', role: 'edit', at: t1 })
        .thenThrows('not_found', /Organization/);
    });
  });

  describe('UpdateOrganization', () => {
    const update = (changes: OrganizationChanges): OrganizationCommand => ({
      type: 'UpdateOrganization',
      changes,
      at: t1,
    });
    const updated = (changes: OrganizationChanges): OrganizationEvent => ({
      type: 'OrganizationUpdated',
      data: { organizationId: 'org1', changes, updatedAt: iso(t1) },
    });

    it('changes every setting at once', () => {
      const changes: OrganizationChanges = {
        title: 'Acme',
        emailDomains: ['acme.test', 'docs.acme.test'],
        hostname: 'acme-docs',
        defaultRole: 'read',
        logo: 'https://acme.test/logo.png',
        sso: true,
        ai: true,
        inviteLinks: false,
      };
      const state = organization
        .given(active)
        .when(update(changes))
        .thenEmits([updated(changes)]);
      expect(state).toMatchObject(changes);
    });

    it('trims the title', () => {
      organization
        .given(active)
        .when(update({ title: '  Acme  ' }))
        .thenEmits([updated({ title: 'Acme' })]);
    });

    it('stores email domains in lower case', () => {
      organization
        .given(active)
        .when(update({ emailDomains: ['Acme.TEST'] }))
        .thenEmits([updated({ emailDomains: ['acme.test'] })]);
    });

    it("sets the merge rules its spaces inherit, none until then, checked as a space's are", () => {
      const rules: OrganizationChanges['mergeRules'] = {
        type: 'rules',
        rules: [{ rule: 'require_specific_reviewers', users: ['u1'] }],
      };
      const state = organization
        .given(active)
        .when(
          update({
            mergeRules: {
              type: 'rules',
              rules: [{ rule: 'require_specific_reviewers', users: ['u1', 'u1'] }],
            },
          }),
        )
        .thenEmits([updated({ mergeRules: rules })]);
      expect(state).toMatchObject({ mergeRules: rules });
      organization
        .given(active)
        .when(update({ mergeRules: { type: 'none' } }))
        .thenNothing();
      organization
        .given([...active, updated({ mergeRules: rules })])
        .when(update({ mergeRules: { type: 'none' } }))
        .thenEmits([updated({ mergeRules: { type: 'none' } })]);
      organization
        .given(active)
        .when(update({ mergeRules: { type: 'inherit' } as never }))
        .thenThrows('invalid', /^mergeRules: type must be none/);
      organization
        .given(active)
        .when(update({ mergeRules: { type: 'rules', rules: [{ rule: 'custom' }] } as never }))
        .thenThrows('invalid', /^mergeRules\.rules\[0\]\.rule/);
    });

    it('clears the default role and the logo with null', () => {
      organization
        .given([...active, updated({ defaultRole: 'edit', logo: 'https://acme.test/l.png' })])
        .when(update({ defaultRole: null, logo: null }))
        .thenEmits([updated({ defaultRole: null, logo: null })]);
    });

    it('records only what changes, and nothing when nothing does', () => {
      organization
        .given(active)
        .when(update({ title: 'Acme Docs', sso: false, emailDomains: [], ai: true }))
        .thenEmits([updated({ ai: true })]);
      organization
        .given(active)
        .when(update({ title: 'Acme Docs', inviteLinks: true, defaultRole: null }))
        .thenNothing();
    });

    it.each([
      ['1 character', 'a'],
      ['only whitespace', '    '],
      ['256 characters', 'x'.repeat(256)],
    ])('rejects a title of %s', (_label, title) => {
      organization
        .given(active)
        .when(update({ title }))
        .thenThrows('invalid', /^title/);
    });

    it.each([
      ['no top-level domain', 'localhost'],
      ['a space', 'acme .test'],
      ['a leading dash', '-acme.test'],
      ['an at sign', 'bob@acme.test'],
      ['a one-letter top-level domain', 'acme.t'],
      ['an empty label', 'acme..test'],
      ['nothing', ''],
    ])('rejects an email domain with %s', (_label, domain) => {
      organization
        .given(active)
        .when(update({ emailDomains: ['ok.test', domain] }))
        .thenThrows('invalid', /^emailDomains/);
    });

    it('rejects an email domain listed twice, whatever its case', () => {
      organization
        .given(active)
        .when(update({ emailDomains: ['acme.test', 'ACME.test'] }))
        .thenThrows('invalid', /^emailDomains.*twice/);
    });

    it('rejects more than 100 email domains', () => {
      const domains = Array.from({ length: 101 }, (_, i) => `d${i}.test`);
      organization
        .given(active)
        .when(update({ emailDomains: domains }))
        .thenThrows('invalid', /^emailDomains/);
    });

    it.each([
      ['2 characters', 'ab'],
      ['33 characters', 'a'.repeat(33)],
      ['capitals', 'Acme'],
      ['a trailing dash', 'acme-'],
      ['a dot', 'acme.docs'],
    ])('rejects a hostname of %s', (_label, hostname) => {
      organization
        .given(active)
        .when(update({ hostname }))
        .thenThrows('invalid', /^hostname/);
    });

    it.each([
      ['not a URL', 'logo.png'],
      ['not http', 'ftp://acme.test/logo.png'],
      ['longer than 2048 characters', `https://acme.test/${'x'.repeat(2040)}`],
    ])('rejects a logo that is %s', (_label, logo) => {
      organization.given(active).when(update({ logo })).thenThrows('invalid', /^logo/);
    });

    it('rejects updating an organization that does not exist', () => {
      organization.when(update({ title: 'Acme' })).thenThrows('not_found', /Organization/);
    });
  });
});
