import { Access, MEMBERS, type Viewer } from '@app/platform/auth/access';
import { memberKey } from '@app/platform/auth/member-key';
import { DomainError, notFound } from '@app/platform/domain/decider';
import { ID_PATTERN } from '@app/platform/domain/ids';
import { atLeast, type Role } from '@app/platform/domain/roles';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { apiContext } from '@app/platform/write/command-context';
import { CommandRunner } from '@app/platform/write/command-runner';
import { TEAMS } from '@app/teams/read/team.projection';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { grantAggregate } from '../domain/grant.aggregate';
import { type GrantCommand, type GrantTarget } from '../domain/grant.decider';
import { CONTENT_ACCESS, CONTENT_GRANTS, grantKey } from '../read/content-access.projection';

export type ContentKind = GrantTarget['kind'];
export const CONTENT_KINDS: readonly ContentKind[] = ['space', 'collection'];

export interface InviteInput {
  role: Role | null;
  users?: string[];
  teams?: string[];
}

export interface SetPermissionInput {
  role?: Role | null;
}

/** How a 404 names each kind of resource. */
export const WHAT: Record<ContentKind, string> = { space: 'Space', collection: 'Collection' };

/**
 * Turns requests into grants on a space or collection. The route checked the caller may manage the
 * resource's access; here, that every user named is a member or guest of its organization and every team
 * one of its teams (a 404, as GitBook answers), and that nobody but an organization admin grants a role
 * stronger than their own there.
 */
@Injectable()
export class GrantService {
  constructor(
    private readonly bus: CommandBus,
    private readonly runner: CommandRunner,
    private readonly access: Access,
    @Inject(READ_STORE) private readonly views: ReadStore,
  ) {}

  private async target(kind: ContentKind, resourceId: string, viewer: Viewer, role: Role | null) {
    const { organization, role: own } = await this.access.content(resourceId, viewer, WHAT[kind]);
    const doc = await this.views.get(CONTENT_ACCESS, resourceId);
    if (!doc || doc.kind !== kind) throw notFound(`${WHAT[kind]} not found`);
    if (role && !atLeast(own, role)) {
      throw new DomainError('forbidden', `Your role here (${own}) does not allow you to grant ${role}`);
    }
    return { kind, resourceId, organization };
  }

  private async checkUser(organization: string, userId: string): Promise<void> {
    const member =
      ID_PATTERN.test(userId) && (await this.views.get(MEMBERS, memberKey(organization, userId)));
    if (!member) throw notFound(`No member or guest of the organization has the id ${userId}`);
  }

  private async checkTeam(organization: string, teamId: string): Promise<void> {
    const team = ID_PATTERN.test(teamId) && (await this.views.get(TEAMS, teamId));
    if (!team || team.organization !== organization)
      throw notFound(`No team of the organization has the id ${teamId}`);
  }

  private run(target: GrantTarget, command: GrantCommand, viewer: Viewer) {
    return this.bus.execute(grantAggregate.message(target.resourceId, command, apiContext(viewer)));
  }

  @Remote(
    arg.oneOf('kind', CONTENT_KINDS),
    arg.id('resourceId'),
    arg.object<InviteInput>('body'),
    arg.viewer(),
  )
  async invite(kind: ContentKind, resourceId: string, body: InviteInput, viewer: Viewer) {
    const target = await this.target(kind, resourceId, viewer, body.role);
    const users = body.users ?? [];
    const teams = body.teams ?? [];
    for (const userId of users) await this.checkUser(target.organization, userId);
    for (const teamId of teams) await this.checkTeam(target.organization, teamId);
    const at = this.runner.now();
    return this.run(target, { type: 'Grant', target, users, teams, role: body.role, at }, viewer);
  }

  /** Sets one user's or team's role here; a null role takes their grant away. */
  @Remote(
    arg.oneOf('kind', CONTENT_KINDS),
    arg.id('resourceId'),
    arg.oneOf('grantee', ['user', 'team'] as const),
    arg.id('granteeId'),
    arg.object<SetPermissionInput>('body'),
    arg.viewer(),
  )
  async set(
    kind: ContentKind,
    resourceId: string,
    grantee: 'user' | 'team',
    granteeId: string,
    body: SetPermissionInput,
    viewer: Viewer,
  ) {
    const role = body.role ?? null;
    const target = await this.target(kind, resourceId, viewer, role);
    const users = grantee === 'user' ? [granteeId] : [];
    const teams = grantee === 'team' ? [granteeId] : [];
    if (grantee === 'user') await this.checkUser(target.organization, granteeId);
    else await this.checkTeam(target.organization, granteeId);
    return this.run(target, { type: 'Grant', target, users, teams, role, at: this.runner.now() }, viewer);
  }

  /** `removed: false` when the user or team held no grant here (GitBook answers 204 then, 205 otherwise). */
  @Remote(
    arg.oneOf('kind', CONTENT_KINDS),
    arg.id('resourceId'),
    arg.oneOf('grantee', ['user', 'team'] as const),
    arg.id('granteeId'),
    arg.viewer(),
  )
  async remove(
    kind: ContentKind,
    resourceId: string,
    grantee: 'user' | 'team',
    granteeId: string,
    viewer: Viewer,
  ) {
    const target = await this.target(kind, resourceId, viewer, null);
    const held = await this.views.get(CONTENT_GRANTS, grantKey(resourceId, grantee, granteeId));
    const who = grantee === 'user' ? { userId: granteeId } : { teamId: granteeId };
    const result = await this.run(target, { type: 'Revoke', target, ...who, at: this.runner.now() }, viewer);
    return { ...result, removed: held !== null };
  }
}
