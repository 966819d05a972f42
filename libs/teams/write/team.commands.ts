import { USERS } from '@app/identity/read/identity.projection';
import { MEMBERS, type Viewer } from '@app/platform/auth/access';
import { memberKey } from '@app/platform/auth/member-key';
import { invalid, notFound } from '@app/platform/domain/decider';
import { ID_PATTERN, newId } from '@app/platform/domain/ids';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { apiContext } from '@app/platform/write/command-context';
import { CommandRunner } from '@app/platform/write/command-runner';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { teamAggregate } from '../domain/team.aggregate';
import { TEAM_ROLES, type TeamCommand, type TeamRole } from '../domain/team.decider';
import { TEAMS } from '../read/team.projection';

export interface CreateTeamInput {
  title: string;
  members?: string[];
}

export interface UpdateTeamInput {
  title: string;
}

export interface UpdateTeamMembersInput {
  /** User ids or emails. */
  add?: string[];
  remove?: string[];
  /** Role of each user, by user id. */
  memberships?: Record<string, unknown>;
}

export interface SetTeamMemberInput {
  role?: TeamRole;
}

const isTeamRole = (value: unknown): value is TeamRole =>
  typeof value === 'string' && (TEAM_ROLES as readonly string[]).includes(value);

/**
 * Turns requests into team commands, checking on the read side that every user named is a member of
 * the organization (an email names the member with that email). The route checked the caller's role.
 */
@Injectable()
export class TeamService {
  constructor(
    private readonly bus: CommandBus,
    private readonly runner: CommandRunner,
    @Inject(READ_STORE) private readonly views: ReadStore,
  ) {}

  private run(teamId: string, command: TeamCommand, viewer: Viewer) {
    return this.bus.execute(teamAggregate.message(teamId, command, apiContext(viewer)));
  }

  /** The team must belong to the organization of the path. */
  private async team(organization: string, teamId: string): Promise<void> {
    const doc = await this.views.get(TEAMS, teamId);
    if (!doc || doc.organization !== organization) throw notFound('Team not found');
  }

  private async isMember(organization: string, userId: string): Promise<boolean> {
    return (
      ID_PATTERN.test(userId) && (await this.views.get(MEMBERS, memberKey(organization, userId))) !== null
    );
  }

  /** The ids of the users with that email, members of the organization or not. */
  private async usersWithEmail(email: string): Promise<string[]> {
    return (await this.views.find(USERS, { where: { email }, limit: 10 })).items.map((user) => user.id);
  }

  /** The user id of a member given by id or email; a 400 naming `field` when no member matches. */
  private async resolve(organization: string, given: string, field: string): Promise<string> {
    if (given.includes('@')) {
      const users = await this.views.find(USERS, { where: { email: given }, limit: 10 });
      for (const user of users.items) if (await this.isMember(organization, user.id)) return user.id;
      throw invalid(`${field}: no member of the organization has the email ${given}`);
    }
    if (!(await this.isMember(organization, given))) {
      throw invalid(`${field}: ${given} is not a member of the organization`);
    }
    return given;
  }

  @Remote(arg.id('organization'), arg.object<CreateTeamInput>('body'), arg.viewer())
  async create(organization: string, body: CreateTeamInput, viewer: Viewer) {
    const members: string[] = [];
    for (const given of body.members ?? []) members.push(await this.resolve(organization, given, 'members'));
    const teamId = newId();
    const result = await this.run(
      teamId,
      {
        type: 'CreateTeam',
        teamId,
        organization,
        title: body.title,
        members: [...new Set(members)],
        at: this.runner.now(),
      },
      viewer,
    );
    return { teamId, ...result };
  }

  @Remote(arg.id('organization'), arg.id('teamId'), arg.object<UpdateTeamInput>('body'), arg.viewer())
  async rename(organization: string, teamId: string, body: UpdateTeamInput, viewer: Viewer) {
    await this.team(organization, teamId);
    return this.run(teamId, { type: 'RenameTeam', title: body.title, at: this.runner.now() }, viewer);
  }

  @Remote(arg.id('organization'), arg.id('teamId'), arg.viewer())
  async delete(organization: string, teamId: string, viewer: Viewer) {
    await this.team(organization, teamId);
    return this.run(teamId, { type: 'DeleteTeam', at: this.runner.now() }, viewer);
  }

  @Remote(arg.id('organization'), arg.id('teamId'), arg.object<UpdateTeamMembersInput>('body'), arg.viewer())
  async updateMembers(organization: string, teamId: string, body: UpdateTeamMembersInput, viewer: Viewer) {
    await this.team(organization, teamId);
    // Whoever is removed goes, members of the organization or not (someone who left it included), and a
    // user both added and removed ends removed: they need not be a member to be named in `add` then.
    const remove = new Set<string>();
    for (const given of body.remove ?? []) {
      for (const userId of given.includes('@') ? await this.usersWithEmail(given) : [given])
        remove.add(userId);
    }
    const removed = async (given: string) =>
      remove.has(given) ||
      (given.includes('@') && (await this.usersWithEmail(given)).some((u) => remove.has(u)));
    const add: string[] = [];
    for (const given of body.add ?? []) {
      if (!(await removed(given))) add.push(await this.resolve(organization, given, 'add'));
    }
    const roles: Record<string, TeamRole> = {};
    for (const [userId, membership] of Object.entries(body.memberships ?? {})) {
      const role = (membership as { role?: unknown } | null)?.role;
      const keys = membership !== null && typeof membership === 'object' ? Object.keys(membership) : [];
      if (!isTeamRole(role) || keys.length !== 1) {
        throw invalid(`memberships.${userId} must be {role} with a role of ${TEAM_ROLES.join(' or ')}`);
      }
      if (!(await removed(userId))) roles[await this.resolve(organization, userId, 'memberships')] = role;
    }
    return this.run(
      teamId,
      { type: 'UpdateTeamMembers', add, remove: [...remove], roles, at: this.runner.now() },
      viewer,
    );
  }

  @Remote(
    arg.id('organization'),
    arg.id('teamId'),
    arg.id('userId'),
    arg.object<SetTeamMemberInput>('body'),
    arg.viewer(),
  )
  async setMember(
    organization: string,
    teamId: string,
    userId: string,
    body: SetTeamMemberInput,
    viewer: Viewer,
  ) {
    await this.team(organization, teamId);
    if (!(await this.isMember(organization, userId))) throw notFound('Member not found');
    return this.run(
      teamId,
      { type: 'SetTeamMember', userId, role: body.role, at: this.runner.now() },
      viewer,
    );
  }

  /** Removing someone who is not in the team changes nothing, and succeeds. */
  @Remote(arg.id('organization'), arg.id('teamId'), arg.id('userId'), arg.viewer())
  async removeMember(organization: string, teamId: string, userId: string, viewer: Viewer) {
    await this.team(organization, teamId);
    return this.run(teamId, { type: 'RemoveTeamMember', userId, at: this.runner.now() }, viewer);
  }
}
