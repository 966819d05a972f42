import { MEMBERS } from '@app/platform/auth/auth-views';
import { givenProjection, recorderOf } from '@app/platform/projector/projection.testing';
import { type OrganizationEvent, organizationStream } from '../domain/organization.decider';
import { EMAIL_DOMAINS, ORGANIZATIONS, organizationProjection } from './organization.projection';

const recorded = recorderOf<OrganizationEvent>();
const inStream = { stream: organizationStream('o1') };

const organizationCreated = () =>
  recorded(
    'OrganizationCreated',
    {
      organizationId: 'o1',
      title: 'Acme',
      emailDomains: ['acme.test'],
      createdBy: 'u1',
      createdAt: '2026-01-01T00:00:00.000Z',
    },
    inStream,
  );
const memberAdded = (userId: string, role: 'admin' | 'read', joinedAt: string) =>
  recorded('MemberAdded', { organizationId: 'o1', userId, role, joinedAt }, inStream);
const roleChanged = (userId: string, role: 'edit') =>
  recorded(
    'MemberRoleChanged',
    { organizationId: 'o1', userId, role, changedAt: '2026-01-03T00:00:00.000Z' },
    inStream,
  );

const organizationUpdated = (changes: Record<string, unknown>) =>
  recorded(
    'OrganizationUpdated',
    { organizationId: 'o1', changes, updatedAt: '2026-01-04T00:00:00.000Z' },
    inStream,
  );

const organizations = givenProjection(organizationProjection);

describe('organizations projection', () => {
  it('records a created organization', async () => {
    await organizations
      .given(organizationCreated())
      .thenDocuments(ORGANIZATIONS, [
        { id: 'o1', title: 'Acme', emailDomains: ['acme.test'], createdAt: '2026-01-01T00:00:00.000Z' },
      ]);
  });

  it('keys memberships by organization and user', async () => {
    await organizations
      .given(
        organizationCreated(),
        memberAdded('u1', 'admin', '2026-01-01T00:00:00.000Z'),
        memberAdded('u2', 'read', '2026-01-02T00:00:00.000Z'),
      )
      .thenDocuments(MEMBERS, [
        {
          id: 'o1:u1',
          organization: 'o1',
          userId: 'u1',
          role: 'admin',
          joinedAt: '2026-01-01T00:00:00.000Z',
        },
        { id: 'o1:u2', organization: 'o1', userId: 'u2', role: 'read', joinedAt: '2026-01-02T00:00:00.000Z' },
      ]);
  });

  it("changes a member's role and keeps when it joined", async () => {
    await organizations
      .given(
        organizationCreated(),
        memberAdded('u2', 'read', '2026-01-02T00:00:00.000Z'),
        roleChanged('u2', 'edit'),
      )
      .thenDocuments(MEMBERS, [
        { id: 'o1:u2', organization: 'o1', userId: 'u2', role: 'edit', joinedAt: '2026-01-02T00:00:00.000Z' },
      ]);
  });

  it('ignores a role change of a membership it never saw', async () => {
    await organizations.given(organizationCreated(), roleChanged('u9', 'edit')).thenDocuments(MEMBERS, []);
  });

  it('applies an update to the organization', async () => {
    await organizations
      .given(
        organizationCreated(),
        organizationUpdated({ title: 'Acme 2', hostname: 'acme', defaultRole: null }),
      )
      .thenDocuments(ORGANIZATIONS, [
        {
          id: 'o1',
          title: 'Acme 2',
          emailDomains: ['acme.test'],
          hostname: 'acme',
          defaultRole: null,
          createdAt: '2026-01-01T00:00:00.000Z',
        },
      ]);
  });

  it('indexes the organization under each of its email domains, following updates', async () => {
    await organizations
      .given(organizationCreated())
      .thenDocuments(EMAIL_DOMAINS, [{ id: 'acme.test:o1', domain: 'acme.test', organization: 'o1' }]);
    await organizations
      .given(organizationCreated(), organizationUpdated({ emailDomains: ['b.test', 'c.test'] }))
      .thenDocuments(EMAIL_DOMAINS, [
        { id: 'b.test:o1', domain: 'b.test', organization: 'o1' },
        { id: 'c.test:o1', domain: 'c.test', organization: 'o1' },
      ]);
  });

  it('changes nothing when the events are replayed, and a rebuild gives the same views', async () => {
    const scenario = organizations.given(
      organizationCreated(),
      organizationUpdated({ emailDomains: ['b.test'], sso: true }),
      memberAdded('u1', 'admin', '2026-01-01T00:00:00.000Z'),
      memberAdded('u2', 'read', '2026-01-02T00:00:00.000Z'),
      roleChanged('u2', 'edit'),
    );
    await scenario.thenReplayChangesNothing();
    await scenario.thenRebuildMatches();
  });
});
