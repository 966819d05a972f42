import { MEMBERS } from '@app/platform/auth/auth-views';
import { givenProjection, recorderOf } from '@app/platform/projector/projection.testing';
import { type OrganizationEvent, organizationStream } from '../domain/organization.decider';
import { ORGANIZATIONS, organizationProjection } from './organization.projection';

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

  it('changes nothing when the events are replayed, and a rebuild gives the same views', async () => {
    const scenario = organizations.given(
      organizationCreated(),
      memberAdded('u1', 'admin', '2026-01-01T00:00:00.000Z'),
      memberAdded('u2', 'read', '2026-01-02T00:00:00.000Z'),
      roleChanged('u2', 'edit'),
    );
    await scenario.thenReplayChangesNothing();
    await scenario.thenRebuildMatches();
  });
});
