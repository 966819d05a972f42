import type { Grants } from '@app/platform/domain/content-access';
import { type Decider, type Decisions, decideBy, invalid } from '@app/platform/domain/decider';
import type { Role } from '@app/platform/domain/roles';

/** What grants are made on: a space or a collection, in its organization. */
export interface GrantTarget {
  kind: 'space' | 'collection';
  resourceId: string;
  organization: string;
}

/** Users and teams one invitation may name at most. */
export const GRANTEES_MAX = 100;

type Stamp<K extends string> = { [key in K]: string };

export type GrantEvent =
  | { type: 'UserAccessGranted'; data: GrantTarget & { userId: string; role: Role } & Stamp<'grantedAt'> }
  | { type: 'UserAccessRevoked'; data: GrantTarget & { userId: string } & Stamp<'revokedAt'> }
  | { type: 'TeamAccessGranted'; data: GrantTarget & { teamId: string; role: Role } & Stamp<'grantedAt'> }
  | { type: 'TeamAccessRevoked'; data: GrantTarget & { teamId: string } & Stamp<'revokedAt'> };

/**
 * The service checks on the read side that the resource exists and that every user is a member (or
 * guest) of its organization and every team one of its teams, so the decider trusts the ids.
 */
export type GrantCommand =
  /** Grants `role` to each user and team; a null role takes their grants away. */
  | { type: 'Grant'; target: GrantTarget; users: string[]; teams: string[]; role: Role | null; at: number }
  | { type: 'Revoke'; target: GrantTarget; userId?: string; teamId?: string; at: number };

/** The grants made on one resource (not those it inherits). */
export type GrantState = Grants;

const iso = (ms: number) => new Date(ms).toISOString();

function revocations(state: GrantState, target: GrantTarget, users: string[], teams: string[], at: number) {
  const events: GrantEvent[] = [];
  for (const userId of users) {
    if (userId in state.users)
      events.push({ type: 'UserAccessRevoked', data: { ...target, userId, revokedAt: iso(at) } });
  }
  for (const teamId of teams) {
    if (teamId in state.teams)
      events.push({ type: 'TeamAccessRevoked', data: { ...target, teamId, revokedAt: iso(at) } });
  }
  return events;
}

/** What each command decides. */
const decisions: Decisions<GrantCommand, GrantEvent, GrantState> = {
  Grant(command, state) {
    const users = [...new Set(command.users)];
    const teams = [...new Set(command.teams)];
    if (users.length + teams.length === 0) throw invalid('users or teams must name at least one grantee');
    if (users.length > GRANTEES_MAX || teams.length > GRANTEES_MAX) {
      throw invalid(`users and teams may name at most ${GRANTEES_MAX} grantees each`);
    }
    const { role, target, at } = command;
    if (role === null) return revocations(state, target, users, teams, at);
    // A grant is recorded even when it repeats the stored one: the views drop grants of members who
    // leave, and granting again must bring the access back.
    return [
      ...users.map(
        (userId): GrantEvent => ({
          type: 'UserAccessGranted',
          data: { ...target, userId, role, grantedAt: iso(at) },
        }),
      ),
      ...teams.map(
        (teamId): GrantEvent => ({
          type: 'TeamAccessGranted',
          data: { ...target, teamId, role, grantedAt: iso(at) },
        }),
      ),
    ];
  },

  Revoke(command, state) {
    const { target, userId, teamId, at } = command;
    return revocations(state, target, userId ? [userId] : [], teamId ? [teamId] : [], at);
  },
};

export const grantDecider: Decider<GrantCommand, GrantEvent, GrantState> = {
  initialState: { users: {}, teams: {} },

  decide: decideBy(decisions),

  evolve(state, event) {
    switch (event.type) {
      case 'UserAccessGranted':
        return { ...state, users: { ...state.users, [event.data.userId]: event.data.role } };
      case 'TeamAccessGranted':
        return { ...state, teams: { ...state.teams, [event.data.teamId]: event.data.role } };
      case 'UserAccessRevoked': {
        const { [event.data.userId]: _gone, ...users } = state.users;
        return { ...state, users };
      }
      case 'TeamAccessRevoked': {
        const { [event.data.teamId]: _gone, ...teams } = state.teams;
        return { ...state, teams };
      }
      default:
        return state;
    }
  },
};

export const grantStream = (resourceId: string) => `grants-${resourceId}`;
