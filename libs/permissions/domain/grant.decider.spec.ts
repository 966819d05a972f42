import { spec } from '@app/platform/domain/decider.testing';
import { type GrantEvent, type GrantTarget, grantDecider } from './grant.decider';

const target: GrantTarget = { kind: 'space', resourceId: 's1', organization: 'o1' };
const at = Date.parse('2026-01-01T00:00:00.000Z');
const iso = new Date(at).toISOString();
const granted = (userId: string, role: 'read' | 'edit' = 'read'): GrantEvent => ({
  type: 'UserAccessGranted',
  data: { ...target, userId, role, grantedAt: iso },
});
const teamGranted = (teamId: string, role: 'read' | 'edit' = 'read'): GrantEvent => ({
  type: 'TeamAccessGranted',
  data: { ...target, teamId, role, grantedAt: iso },
});

describe('grant decider', () => {
  const grants = spec(grantDecider);

  it('grants a role to each user and team named once, even one that holds it already', () => {
    const state = grants
      .given([granted('u1')])
      .when({ type: 'Grant', target, users: ['u1', 'u2', 'u2'], teams: ['t1'], role: 'edit', at })
      .thenEmits([granted('u1', 'edit'), granted('u2', 'edit'), teamGranted('t1', 'edit')]);
    expect(state).toEqual({ users: { u1: 'edit', u2: 'edit' }, teams: { t1: 'edit' } });
  });

  it('a null role takes away the grants that exist, and nothing else', () => {
    grants
      .given([granted('u1'), teamGranted('t1')])
      .when({ type: 'Grant', target, users: ['u1', 'u9'], teams: ['t1'], role: null, at })
      .thenEmits([
        { type: 'UserAccessRevoked', data: { ...target, userId: 'u1', revokedAt: iso } },
        { type: 'TeamAccessRevoked', data: { ...target, teamId: 't1', revokedAt: iso } },
      ]);
  });

  it('revokes one grant; revoking one that does not exist changes nothing', () => {
    const state = grants
      .given([granted('u1'), teamGranted('t1')])
      .when({ type: 'Revoke', target, teamId: 't1', at })
      .thenEmits([{ type: 'TeamAccessRevoked', data: { ...target, teamId: 't1', revokedAt: iso } }]);
    expect(state).toEqual({ users: { u1: 'read' }, teams: {} });
    grants
      .given([granted('u1')])
      .when({ type: 'Revoke', target, userId: 'u2', at })
      .thenNothing();
  });

  it('refuses an invitation naming nobody, or too many', () => {
    grants
      .when({ type: 'Grant', target, users: [], teams: [], role: 'read', at })
      .thenThrows('invalid', /users or teams/);
    const many = Array.from({ length: 101 }, (_, i) => `u${i}`);
    grants
      .when({ type: 'Grant', target, users: many, teams: [], role: 'read', at })
      .thenThrows('invalid', /at most 100/);
  });
});
