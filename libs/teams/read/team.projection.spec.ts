import { givenProjection, recorderOf } from '@app/platform/projector/projection.testing';
import { type TeamEvent, teamStream } from '../domain/team.decider';
import { TEAM_MEMBERS, TEAMS, teamProjection } from './team.projection';

const recorded = recorderOf<TeamEvent>();
const t = (day: number) => `2026-01-${String(day).padStart(2, '0')}T00:00:00.000Z`;
const on = (teamId: string) => ({ stream: teamStream(teamId) });
const base = (teamId: string) => ({ teamId, organization: 'o1' });

const created = (teamId: string, title = `Team ${teamId}`) =>
  recorded('TeamCreated', { ...base(teamId), title, createdAt: t(1) }, on(teamId));
const added = (teamId: string, userId: string, role: 'owner' | 'member' = 'member', day = 2) =>
  recorded('TeamMemberAdded', { ...base(teamId), userId, role, addedAt: t(day) }, on(teamId));
const removed = (teamId: string, userId: string, day = 3) =>
  recorded('TeamMemberRemoved', { ...base(teamId), userId, removedAt: t(day) }, on(teamId));

const team = (id: string, changes: Record<string, unknown> = {}) => ({
  id,
  organization: 'o1',
  title: `Team ${id}`,
  members: 0,
  createdAt: t(1),
  updatedAt: t(1),
  streamRevision: 0,
  ...changes,
});
const membership = (teamId: string, userId: string, role = 'member', day = 2) => ({
  id: `${teamId}:${userId}`,
  team: teamId,
  organization: 'o1',
  userId,
  role,
  addedAt: t(day),
});

const teams = givenProjection(teamProjection);

describe('teams projection', () => {
  it('records a created team with no members', async () => {
    await teams.given(created('t1')).thenDocuments(TEAMS, [team('t1')]);
  });

  it('records memberships and keeps the member count exact', async () => {
    const scenario = teams.given(
      created('t1'),
      added('t1', 'u1'),
      added('t1', 'u2', 'owner'),
      added('t1', 'u3'),
      removed('t1', 'u3'),
    );
    await scenario.thenDocuments(TEAMS, [team('t1', { members: 2, updatedAt: t(3), streamRevision: 4 })]);
    await scenario.thenDocuments(TEAM_MEMBERS, [membership('t1', 'u1'), membership('t1', 'u2', 'owner')]);
  });

  it('renames, and changes a role', async () => {
    const scenario = teams.given(
      created('t1'),
      added('t1', 'u1'),
      recorded('TeamRenamed', { ...base('t1'), title: 'Editors', renamedAt: t(3) }, on('t1')),
      recorded(
        'TeamMemberRoleChanged',
        { ...base('t1'), userId: 'u1', role: 'owner', changedAt: t(4) },
        on('t1'),
      ),
    );
    await scenario.thenDocuments(TEAMS, [
      team('t1', { title: 'Editors', members: 1, updatedAt: t(4), streamRevision: 3 }),
    ]);
    await scenario.thenDocuments(TEAM_MEMBERS, [membership('t1', 'u1', 'owner')]);
  });

  it('forgets a deleted team and its memberships, and no other team', async () => {
    const scenario = teams.given(
      created('t1'),
      created('t2'),
      added('t1', 'u1'),
      added('t2', 'u1'),
      recorded('TeamDeleted', { ...base('t1'), deletedAt: t(5) }, on('t1')),
    );
    await scenario.thenDocuments(TEAMS, [team('t2', { members: 1, updatedAt: t(2), streamRevision: 1 })]);
    await scenario.thenDocuments(TEAM_MEMBERS, [membership('t2', 'u1')]);
  });

  it('ignores events of a team it never saw created', async () => {
    await teams
      .given(added('t9', 'u1'), recorded('TeamRenamed', { ...base('t9'), title: 'X', renamedAt: t(2) }))
      .thenDocuments(TEAMS, []);
  });

  it('changes nothing when the events are replayed, and a rebuild gives the same views', async () => {
    const scenario = teams.given(
      created('t1'),
      created('t2'),
      added('t1', 'u1'),
      added('t1', 'u2'),
      added('t2', 'u2', 'owner'),
      removed('t1', 'u1', 4),
      added('t1', 'u1', 'member', 5),
      recorded('TeamRenamed', { ...base('t2'), title: 'Renamed', renamedAt: t(6) }, on('t2')),
      recorded('TeamDeleted', { ...base('t2'), deletedAt: t(7) }, on('t2')),
    );
    await scenario.thenDocuments(TEAMS, [team('t1', { members: 2, updatedAt: t(5), streamRevision: 4 })]);
    await scenario.thenDocuments(TEAM_MEMBERS, [membership('t1', 'u1', 'member', 5), membership('t1', 'u2')]);
    await scenario.thenReplayChangesNothing();
    await scenario.thenRebuildMatches();
  });
});
