import {
  conflict,
  type Decider,
  type Decisions,
  decideBy,
  invalid,
  notFound,
} from '@app/platform/domain/decider';

/** A member's role in a team: an `owner` can manage the team's members. */
export const TEAM_ROLES = ['owner', 'member'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

export const TEAM_TITLE_MAX = 64;

interface TeamFacts {
  id: string;
  organization: string;
  title: string;
  /** Role of each member, by user id. */
  members: Record<string, TeamRole>;
}

export type TeamState =
  | { status: 'none' }
  | ({ status: 'active' } & TeamFacts)
  | { status: 'deleted'; id: string };

export type TeamEvent =
  | { type: 'TeamCreated'; data: { teamId: string; organization: string; title: string; createdAt: string } }
  | { type: 'TeamRenamed'; data: { teamId: string; organization: string; title: string; renamedAt: string } }
  | { type: 'TeamDeleted'; data: { teamId: string; organization: string; deletedAt: string } }
  | {
      type: 'TeamMemberAdded';
      data: { teamId: string; organization: string; userId: string; role: TeamRole; addedAt: string };
    }
  | {
      type: 'TeamMemberRoleChanged';
      data: { teamId: string; organization: string; userId: string; role: TeamRole; changedAt: string };
    }
  | {
      type: 'TeamMemberRemoved';
      data: { teamId: string; organization: string; userId: string; removedAt: string };
    };

/**
 * Users are organization members when a command names them: the service checks that against the
 * read side, so the decider trusts the ids it is given.
 */
export type TeamCommand =
  | { type: 'CreateTeam'; teamId: string; organization: string; title: string; members: string[]; at: number }
  | { type: 'RenameTeam'; title: string; at: number }
  | { type: 'DeleteTeam'; at: number }
  | {
      type: 'UpdateTeamMembers';
      add: string[];
      remove: string[];
      /** Role of each user named: added when not in the team yet. */
      roles: Record<string, TeamRole>;
      at: number;
    }
  /** Adds a member, or changes their role; without a role an existing member keeps theirs. */
  | { type: 'SetTeamMember'; userId: string; role?: TeamRole; at: number }
  | { type: 'RemoveTeamMember'; userId: string; at: number };

const iso = (ms: number) => new Date(ms).toISOString();

function live(state: TeamState): TeamFacts {
  if (state.status !== 'active') throw notFound('Team not found');
  return state;
}

function checkTitle(title: string): string {
  if (title.length < 1 || title.length > TEAM_TITLE_MAX) {
    throw invalid(`title must be 1 to ${TEAM_TITLE_MAX} characters`);
  }
  return title;
}

/** The events that take a team's members from `before` to `after`: removals, then additions, then role changes. */
function membershipChanges(team: TeamFacts, after: Record<string, TeamRole>, at: number): TeamEvent[] {
  const base = { teamId: team.id, organization: team.organization };
  const events: TeamEvent[] = [];
  for (const userId of Object.keys(team.members)) {
    if (!(userId in after))
      events.push({ type: 'TeamMemberRemoved', data: { ...base, userId, removedAt: iso(at) } });
  }
  for (const [userId, role] of Object.entries(after)) {
    const before = team.members[userId];
    if (before === undefined) {
      events.push({ type: 'TeamMemberAdded', data: { ...base, userId, role, addedAt: iso(at) } });
    } else if (before !== role) {
      events.push({ type: 'TeamMemberRoleChanged', data: { ...base, userId, role, changedAt: iso(at) } });
    }
  }
  return events;
}

/** What each command decides. */
const decisions: Decisions<TeamCommand, TeamEvent, TeamState> = {
  CreateTeam(command, state) {
    if (state.status !== 'none') throw conflict('Team already exists');
    const title = checkTitle(command.title);
    const created: TeamFacts = {
      id: command.teamId,
      organization: command.organization,
      title,
      members: {},
    };
    const members = Object.fromEntries(command.members.map((userId) => [userId, 'member' as const]));
    return [
      {
        type: 'TeamCreated',
        data: {
          teamId: command.teamId,
          organization: command.organization,
          title,
          createdAt: iso(command.at),
        },
      },
      ...membershipChanges(created, members, command.at),
    ];
  },

  RenameTeam(command, state) {
    const team = live(state);
    const title = checkTitle(command.title);
    if (title === team.title) return [];
    return [
      {
        type: 'TeamRenamed',
        data: { teamId: team.id, organization: team.organization, title, renamedAt: iso(command.at) },
      },
    ];
  },

  DeleteTeam(command, state) {
    const team = live(state);
    return [
      {
        type: 'TeamDeleted',
        data: { teamId: team.id, organization: team.organization, deletedAt: iso(command.at) },
      },
    ];
  },

  UpdateTeamMembers(command, state) {
    const team = live(state);
    const after = { ...team.members };
    for (const userId of command.add) after[userId] ??= command.roles[userId] ?? 'member';
    Object.assign(after, command.roles);
    // A user both added and removed ends removed.
    for (const userId of command.remove) delete after[userId];
    return membershipChanges(team, after, command.at);
  },

  SetTeamMember(command, state) {
    const team = live(state);
    const role = command.role ?? team.members[command.userId] ?? 'member';
    return membershipChanges(team, { ...team.members, [command.userId]: role }, command.at);
  },

  RemoveTeamMember(command, state) {
    const team = live(state);
    const { [command.userId]: _removed, ...after } = team.members;
    return membershipChanges(team, after, command.at);
  },
};

export const teamDecider: Decider<TeamCommand, TeamEvent, TeamState> = {
  initialState: { status: 'none' },

  decide: decideBy(decisions),

  evolve(state, event) {
    switch (event.type) {
      case 'TeamCreated': {
        const { teamId, organization, title } = event.data;
        return { status: 'active', id: teamId, organization, title, members: {} };
      }
      case 'TeamRenamed':
        return state.status === 'active' ? { ...state, title: event.data.title } : state;
      case 'TeamDeleted':
        return state.status === 'active' ? { status: 'deleted', id: state.id } : state;
      case 'TeamMemberAdded':
      case 'TeamMemberRoleChanged':
        return state.status === 'active'
          ? { ...state, members: { ...state.members, [event.data.userId]: event.data.role } }
          : state;
      case 'TeamMemberRemoved': {
        if (state.status !== 'active') return state;
        const { [event.data.userId]: _removed, ...members } = state.members;
        return { ...state, members };
      }
      default:
        return state;
    }
  },
};

export const teamStream = (teamId: string) => `team-${teamId}`;
