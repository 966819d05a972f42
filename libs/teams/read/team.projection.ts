import { TEAM_MEMBERS, type TeamMemberDoc } from '@app/platform/auth/auth-views';
import { documents, projection } from '@app/platform/projector/projection';
import { collectionName, type Doc } from '@app/platform/readstore/read-store.port';
import type { TeamEvent } from '../domain/team.decider';

export interface TeamDoc extends Doc {
  organization: string;
  title: string;
  /** How many members the team has, kept with every membership change. */
  members: number;
  createdAt: string;
  updatedAt: string;
  /** Revision of the team's stream: its ETag. */
  streamRevision: number;
}

export const TEAMS = collectionName<TeamDoc>('teams');
export { TEAM_MEMBERS, type TeamMemberDoc };

export const teamMemberKey = (team: string, userId: string) => `${team}:${userId}`;

const teams = documents(TEAMS);
const memberships = documents(TEAM_MEMBERS);

/**
 * Teams and their memberships. The memberships are indexed by user too, so "which teams is this user
 * in" (a user's teams, and the team grants that will read them) is one indexed lookup.
 */
export const teamProjection = projection<TeamEvent>(
  'teams',
  [
    { collection: TEAMS, fields: ['organization', 'title'] },
    { collection: TEAM_MEMBERS, fields: ['team', 'addedAt'] },
    { collection: TEAM_MEMBERS, fields: ['userId', 'organization'] },
  ],
  {
    TeamCreated: teams.put((e) => {
      const { teamId, organization, title, createdAt } = e.data;
      return {
        id: teamId,
        organization,
        title,
        members: 0,
        createdAt,
        updatedAt: createdAt,
        streamRevision: e.revision,
      };
    }),
    TeamRenamed: teams.update(
      (e) => e.data.teamId,
      (doc, e) => ({ ...doc, title: e.data.title, updatedAt: e.data.renamedAt, streamRevision: e.revision }),
    ),
    TeamDeleted: async (e, ctx) => {
      await ctx.delete(TEAMS, e.data.teamId);
      for (const membership of await ctx.find(TEAM_MEMBERS, { team: e.data.teamId })) {
        await ctx.delete(TEAM_MEMBERS, membership.id);
      }
    },
    TeamMemberAdded: async (e, ctx) => {
      const { teamId, organization, userId, role, addedAt } = e.data;
      const doc = await ctx.get(TEAMS, teamId);
      if (!doc) return;
      await ctx.put(TEAM_MEMBERS, {
        id: teamMemberKey(teamId, userId),
        team: teamId,
        organization,
        userId,
        role,
        addedAt,
      });
      await ctx.put(TEAMS, {
        ...doc,
        members: doc.members + 1,
        updatedAt: addedAt,
        streamRevision: e.revision,
      });
    },
    TeamMemberRoleChanged: async (e, ctx) => {
      const { teamId, userId, role, changedAt } = e.data;
      await memberships.change(ctx, teamMemberKey(teamId, userId), (membership) => ({
        ...membership,
        role,
      }));
      await teams.change(ctx, teamId, (doc) => ({
        ...doc,
        updatedAt: changedAt,
        streamRevision: e.revision,
      }));
    },
    TeamMemberRemoved: async (e, ctx) => {
      const { teamId, userId, removedAt } = e.data;
      await ctx.delete(TEAM_MEMBERS, teamMemberKey(teamId, userId));
      await teams.change(ctx, teamId, (doc) => ({
        ...doc,
        members: doc.members - 1,
        updatedAt: removedAt,
        streamRevision: e.revision,
      }));
    },
  },
);
