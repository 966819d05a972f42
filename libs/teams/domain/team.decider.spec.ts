import { spec } from '@app/platform/domain/decider.testing';
import { type TeamEvent, teamDecider, teamStream } from './team.decider';

const t0 = Date.parse('2026-01-01T00:00:00Z');
const t1 = t0 + 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const base = { teamId: 'team1', organization: 'org1' };

const created: TeamEvent = { type: 'TeamCreated', data: { ...base, title: 'Writers', createdAt: iso(t0) } };
const added = (userId: string, role: 'owner' | 'member' = 'member', at = t0): TeamEvent => ({
  type: 'TeamMemberAdded',
  data: { ...base, userId, role, addedAt: iso(at) },
});
const removed = (userId: string, at = t1): TeamEvent => ({
  type: 'TeamMemberRemoved',
  data: { ...base, userId, removedAt: iso(at) },
});
const roleChanged = (userId: string, role: 'owner' | 'member', at = t1): TeamEvent => ({
  type: 'TeamMemberRoleChanged',
  data: { ...base, userId, role, changedAt: iso(at) },
});
const deleted: TeamEvent = { type: 'TeamDeleted', data: { ...base, deletedAt: iso(t1) } };

const team = spec(teamDecider);
const active = [created, added('u1'), added('u2', 'owner')];

describe('team decider', () => {
  it('names the stream after the team', () => {
    expect(teamStream('team1')).toBe('team-team1');
  });

  describe('CreateTeam', () => {
    const create = { type: 'CreateTeam' as const, ...base, title: 'Writers', members: ['u1', 'u2'], at: t0 };

    it('creates a team with its first members, as members', () => {
      const state = team.when(create).thenEmits([created, added('u1'), added('u2')]);
      expect(state).toStrictEqual({
        status: 'active',
        id: 'team1',
        organization: 'org1',
        title: 'Writers',
        members: { u1: 'member', u2: 'member' },
      });
    });

    it('creates an empty team', () => {
      team.when({ ...create, members: [] }).thenEmits([created]);
    });

    it('rejects a title that is empty or longer than 64 characters', () => {
      team.when({ ...create, title: '' }).thenThrows('invalid', /title/);
      team.when({ ...create, title: 'x'.repeat(65) }).thenThrows('invalid', /title/);
    });

    it('rejects creating a team that exists, or existed', () => {
      team
        .given(active)
        .when(create)
        .thenThrows('conflict', /already exists/);
      team
        .given([...active, deleted])
        .when(create)
        .thenThrows('conflict', /already exists/);
    });
  });

  describe('RenameTeam', () => {
    it('renames', () => {
      const state = team
        .given(active)
        .when({ type: 'RenameTeam', title: 'Editors', at: t1 })
        .thenEmits([{ type: 'TeamRenamed', data: { ...base, title: 'Editors', renamedAt: iso(t1) } }]);
      expect(state).toMatchObject({ title: 'Editors' });
    });

    it('emits nothing for the same title', () => {
      team.given(active).when({ type: 'RenameTeam', title: 'Writers', at: t1 }).thenNothing();
    });

    it('rejects a bad title, and a team that does not exist or was deleted', () => {
      team.given(active).when({ type: 'RenameTeam', title: '', at: t1 }).thenThrows('invalid', /title/);
      team.when({ type: 'RenameTeam', title: 'Editors', at: t1 }).thenThrows('not_found');
      team
        .given([...active, deleted])
        .when({ type: 'RenameTeam', title: 'Editors', at: t1 })
        .thenThrows('not_found');
    });
  });

  describe('DeleteTeam', () => {
    it('deletes', () => {
      const state = team.given(active).when({ type: 'DeleteTeam', at: t1 }).thenEmits([deleted]);
      expect(state).toStrictEqual({ status: 'deleted', id: 'team1' });
    });

    it('rejects a team that does not exist or was deleted', () => {
      team.when({ type: 'DeleteTeam', at: t1 }).thenThrows('not_found');
      team
        .given([...active, deleted])
        .when({ type: 'DeleteTeam', at: t1 })
        .thenThrows('not_found');
    });
  });

  describe('UpdateTeamMembers', () => {
    const update = (add: string[], remove: string[], roles: Record<string, 'owner' | 'member'> = {}) => ({
      type: 'UpdateTeamMembers' as const,
      add,
      remove,
      roles,
      at: t1,
    });

    it('adds and removes, then changes roles', () => {
      const state = team
        .given(active)
        .when(update(['u3', 'u1'], ['u2'], { u1: 'owner' }))
        .thenEmits([removed('u2'), roleChanged('u1', 'owner'), added('u3', 'member', t1)]);
      expect(state).toMatchObject({ members: { u1: 'owner', u3: 'member' } });
    });

    it('adds with the role memberships gives, and adds whom memberships names alone', () => {
      team
        .given(active)
        .when(update(['u3'], [], { u3: 'owner', u4: 'member' }))
        .thenEmits([added('u3', 'owner', t1), added('u4', 'member', t1)]);
    });

    it('removes a user both added and removed', () => {
      team
        .given(active)
        .when(update(['u3', 'u1'], ['u3', 'u1'], { u3: 'owner' }))
        .thenEmits([removed('u1')]);
    });

    it('emits nothing when nothing changes', () => {
      team
        .given(active)
        .when(update(['u1'], ['u9'], { u2: 'owner' }))
        .thenNothing();
    });

    it('rejects a team that does not exist or was deleted', () => {
      team.when(update(['u1'], [])).thenThrows('not_found');
      team
        .given([...active, deleted])
        .when(update(['u1'], []))
        .thenThrows('not_found');
    });
  });

  describe('SetTeamMember', () => {
    it('adds a member, as a member by default', () => {
      team
        .given(active)
        .when({ type: 'SetTeamMember', userId: 'u3', at: t1 })
        .thenEmits([added('u3', 'member', t1)]);
      team
        .given(active)
        .when({ type: 'SetTeamMember', userId: 'u3', role: 'owner', at: t1 })
        .thenEmits([added('u3', 'owner', t1)]);
    });

    it("changes a member's role, and keeps it when none is given", () => {
      team
        .given(active)
        .when({ type: 'SetTeamMember', userId: 'u2', role: 'member', at: t1 })
        .thenEmits([roleChanged('u2', 'member')]);
      team.given(active).when({ type: 'SetTeamMember', userId: 'u2', at: t1 }).thenNothing();
    });

    it('rejects a team that does not exist or was deleted', () => {
      team.when({ type: 'SetTeamMember', userId: 'u1', at: t1 }).thenThrows('not_found');
      team
        .given([...active, deleted])
        .when({ type: 'SetTeamMember', userId: 'u1', at: t1 })
        .thenThrows('not_found');
    });
  });

  describe('RemoveTeamMember', () => {
    it('removes a member', () => {
      const state = team
        .given(active)
        .when({ type: 'RemoveTeamMember', userId: 'u1', at: t1 })
        .thenEmits([removed('u1')]);
      expect(state).toMatchObject({ members: { u2: 'owner' } });
    });

    it('emits nothing for someone not in the team', () => {
      team.given(active).when({ type: 'RemoveTeamMember', userId: 'u9', at: t1 }).thenNothing();
    });

    it('rejects a team that does not exist or was deleted', () => {
      team.when({ type: 'RemoveTeamMember', userId: 'u1', at: t1 }).thenThrows('not_found');
      team
        .given([...active, deleted])
        .when({ type: 'RemoveTeamMember', userId: 'u1', at: t1 })
        .thenThrows('not_found');
    });
  });
});
