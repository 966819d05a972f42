import { givenProjection, recorderOf } from '@app/platform/projector/projection.testing';
import { type InviteLinkEvent, inviteLinkStream } from '../domain/invite-link.decider';
import { type MemberInvitesEvent, memberInvitesStream } from '../domain/member-invites.decider';
import { INVITE_LINKS, inviteProjection, MEMBER_INVITES } from './invite.projection';

const recorded = recorderOf<InviteLinkEvent | MemberInvitesEvent>();
const t = (day: number) => `2026-01-${String(day).padStart(2, '0')}T00:00:00.000Z`;
const on = (inviteId: string) => ({ stream: inviteLinkStream(inviteId) });
const base = (inviteId: string, organization = 'o1') => ({ inviteId, organization });

const created = (inviteId: string, organization = 'o1') =>
  recorded(
    'InviteLinkCreated',
    { ...base(inviteId, organization), role: 'read', keyHash: 'ab'.repeat(32), createdAt: t(1) },
    on(inviteId),
  );
const invited = (email: string, role: 'read' | 'edit' = 'read', day = 2) =>
  recorded(
    'MemberInvited',
    { organization: 'o1', email, role, invitedAt: t(day) },
    { stream: memberInvitesStream('o1') },
  );

const link = (id: string, changes: Record<string, unknown> = {}) => ({
  id,
  organization: 'o1',
  role: 'read' as const,
  createdAt: t(1),
  updatedAt: t(1),
  streamRevision: 0,
  ...changes,
});

const invites = givenProjection(inviteProjection);

describe('invites projection', () => {
  it('records a guest link with its null role', async () => {
    await invites
      .given(recorded('InviteLinkCreated', { ...base('g1'), role: null, createdAt: t(1) }, on('g1')))
      .thenDocuments(INVITE_LINKS, [link('g1', { role: null })]);
  });

  it('records a legacy link without its key hash', async () => {
    const scenario = invites.given(created('i1'));
    await scenario.thenDocuments(INVITE_LINKS, [link('i1')]);
    expect(JSON.stringify(await scenario.documents(INVITE_LINKS))).not.toContain('ab'.repeat(32));
  });

  it('changes the role, and forgets a deleted link only', async () => {
    const scenario = invites.given(
      created('i1'),
      created('i2'),
      recorded('InviteLinkUpdated', { ...base('i1'), role: 'admin', updatedAt: t(3) }, on('i1')),
      recorded('InviteLinkDeleted', { ...base('i2'), deletedAt: t(4) }, on('i2')),
    );
    await scenario.thenDocuments(INVITE_LINKS, [
      link('i1', { role: 'admin', updatedAt: t(3), streamRevision: 1 }),
    ]);
  });

  it('records pending email invites, the latest role winning', async () => {
    await invites
      .given(invited('ann@example.com'), invited('bob@example.com'), invited('ann@example.com', 'edit', 3))
      .thenDocuments(MEMBER_INVITES, [
        {
          id: 'o1:ann@example.com',
          organization: 'o1',
          email: 'ann@example.com',
          role: 'edit',
          invitedAt: t(3),
        },
        {
          id: 'o1:bob@example.com',
          organization: 'o1',
          email: 'bob@example.com',
          role: 'read',
          invitedAt: t(2),
        },
      ]);
  });

  it('changes nothing when the events are replayed, and a rebuild gives the same views', async () => {
    const scenario = invites.given(
      created('i1'),
      created('i2', 'o2'),
      recorded('InviteLinkUpdated', { ...base('i1'), role: 'edit', updatedAt: t(3) }, on('i1')),
      invited('ann@example.com'),
      recorded('InviteLinkDeleted', { ...base('i2', 'o2'), deletedAt: t(4) }, on('i2')),
      invited('ann@example.com', 'edit', 5),
    );
    await scenario.thenReplayChangesNothing();
    await scenario.thenRebuildMatches();
  });
});
