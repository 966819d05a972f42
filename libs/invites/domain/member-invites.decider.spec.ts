import { spec } from '@app/platform/domain/decider.testing';
import type { Role } from '@app/platform/domain/roles';
import {
  type EmailInvite,
  type MemberInvitesEvent,
  memberInvitesDecider,
  memberInvitesStream,
} from './member-invites.decider';

const t0 = Date.parse('2026-01-01T00:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const invited = (email: string, role: Role | null = 'read'): MemberInvitesEvent => ({
  type: 'MemberInvited',
  data: { organization: 'org1', email, role, invitedAt: iso(t0) },
});
const invite = (invites: EmailInvite[]) => ({
  type: 'InviteMembers' as const,
  organization: 'org1',
  invites,
  at: t0,
});

const invites = spec(memberInvitesDecider);

describe('member invites decider', () => {
  it('names the stream after the organization', () => {
    expect(memberInvitesStream('org1')).toBe('member-invites-org1');
  });

  it('records each email once, in lower case, with its role', () => {
    const state = invites
      .when(
        invite([
          { email: 'Ann@Example.com', role: 'edit' },
          { email: 'bob@example.com', role: 'read' },
          { email: 'ann@example.com', role: 'admin' },
        ]),
      )
      .thenEmits([invited('ann@example.com', 'edit'), invited('bob@example.com')]);
    expect(state).toStrictEqual({
      organization: 'org1',
      pending: {
        'ann@example.com': { role: 'edit', sso: false },
        'bob@example.com': { role: 'read', sso: false },
      },
    });
  });

  it('records guests (a null role) and SSO members, and an SSO invite of an email invited before', () => {
    invites
      .when(invite([{ email: 'gus@example.com', role: null }]))
      .thenEmits([invited('gus@example.com', null)]);
    invites
      .given([invited('ann@example.com')])
      .when(invite([{ email: 'ann@example.com', role: 'read', sso: true }]))
      .thenEmits([
        {
          type: 'MemberInvited',
          data: {
            organization: 'org1',
            email: 'ann@example.com',
            role: 'read',
            sso: true,
            invitedAt: iso(t0),
          },
        },
      ]);
  });

  it('records each invitation of an email invited before, with its role', () => {
    invites
      .given([invited('ann@example.com')])
      .when(invite([{ email: 'ann@example.com', role: 'admin' }]))
      .thenEmits([invited('ann@example.com', 'admin')]);
    invites
      .given([invited('ann@example.com')])
      .when(invite([{ email: 'ann@example.com', role: 'read' }]))
      .thenEmits([invited('ann@example.com')]);
  });

  it('rejects a malformed or over-long email and a bad role, naming the entry', () => {
    invites.when(invite([{ email: 'not-an-email', role: 'read' }])).thenThrows('invalid', /emails\[0\]/);
    invites.when(invite([{ email: 'a b@example.com', role: 'read' }])).thenThrows('invalid', /emails\[0\]/);
    invites
      .when(invite([{ email: `${'a'.repeat(64)}@${'b'.repeat(300)}.com`, role: 'read' }]))
      .thenThrows('invalid', /emails\[0\]/);
    invites
      .when(
        invite([
          { email: 'ann@example.com', role: 'read' },
          { email: 'bob@example.com', role: 'guest' as Role },
        ]),
      )
      .thenThrows('invalid', /emails\[1\]: role/);
  });
});
