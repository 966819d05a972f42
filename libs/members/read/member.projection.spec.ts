import { type OrganizationEvent, organizationStream } from '@app/organizations/domain/organization.decider';
import { organizationProjection } from '@app/organizations/read/organization.projection';
import { MEMBERS } from '@app/platform/auth/auth-views';
import { givenProjection, recorderOf } from '@app/platform/projector/projection.testing';
import { MEMBER_DETAILS, memberDetailsProjection } from './member.projection';

const recorded = recorderOf<OrganizationEvent>();
const inStream = { stream: organizationStream('o1') };
const at = (day: number) => `2026-01-0${day}T00:00:00.000Z`;

const created = () =>
  recorded(
    'OrganizationCreated',
    { organizationId: 'o1', title: 'Acme', emailDomains: [], createdBy: 'u1', createdAt: at(1) },
    inStream,
  );
const added = (userId: string) =>
  recorded('MemberAdded', { organizationId: 'o1', userId, role: 'read', joinedAt: at(1) }, inStream);
const seen = (userId: string, day: number) =>
  recorded('MemberSeen', { organizationId: 'o1', userId, seenAt: at(day) }, inStream);
const sso = (userId: string) =>
  recorded('MemberSetAsSso', { organizationId: 'o1', userId, setAt: at(2) }, inStream);
const removed = (userId: string) =>
  recorded('MemberRemoved', { organizationId: 'o1', userId, removedAt: at(5) }, inStream);
const guest = (userId: string) =>
  recorded('MemberRoleChanged', { organizationId: 'o1', userId, role: null, changedAt: at(3) }, inStream);

const details = givenProjection(memberDetailsProjection);
const organizations = givenProjection(organizationProjection);

describe('member details projection', () => {
  it('keeps when a member was last seen and whether they are an SSO member', async () => {
    await details
      .given(created(), added('u2'), seen('u2', 2), sso('u2'), seen('u2', 4))
      .thenDocuments(MEMBER_DETAILS, [
        { id: 'o1:u2', organization: 'o1', userId: 'u2', lastSeenAt: at(4), sso: true },
      ]);
  });

  it('forgets a removed member', async () => {
    await details
      .given(seen('u2', 2), sso('u3'), removed('u2'))
      .thenDocuments(MEMBER_DETAILS, [{ id: 'o1:u3', organization: 'o1', userId: 'u3', sso: true }]);
  });

  it('changes nothing when the events are replayed, and a rebuild gives the same view', async () => {
    const scenario = details.given(seen('u2', 2), sso('u2'), seen('u3', 3), removed('u3'), seen('u2', 4));
    await scenario.thenReplayChangesNothing();
    await scenario.thenRebuildMatches();
  });
});

describe('organizations projection: memberships removed and guests', () => {
  it('drops a removed membership, and keeps a guest with a null role', async () => {
    await organizations
      .given(created(), added('u2'), added('u3'), removed('u2'), guest('u3'))
      .thenDocuments(MEMBERS, [
        { id: 'o1:u3', organization: 'o1', userId: 'u3', role: null, joinedAt: at(1) },
      ]);
  });

  it('changes nothing when replayed, and a rebuild gives the same views', async () => {
    const scenario = organizations.given(created(), added('u2'), added('u3'), removed('u2'), guest('u3'));
    await scenario.thenReplayChangesNothing();
    await scenario.thenRebuildMatches();
  });
});
