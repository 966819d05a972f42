import { USERS } from '@app/identity/read/identity.projection';
import { presentUser } from '@app/identity/read/user.presenter';
import { Access, MEMBERS, type Viewer } from '@app/platform/auth/access';
import { TEAM_MEMBERS } from '@app/platform/auth/auth-views';
import type { Role } from '@app/platform/domain/roles';
import { type ListQuery, offsetPage, pageQuery, toList } from '@app/platform/http/pagination';
import { Urls } from '@app/platform/http/urls';
import { FAN_OUT_LIMIT } from '@app/platform/projector/projection';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { TeamPresenter } from '@app/teams/read/team.presenter';
import { TEAMS } from '@app/teams/read/team.projection';
import { Inject, Injectable } from '@nestjs/common';
import { CONTENT_KINDS, type ContentKind, WHAT } from '../write/grant.commands';
import { CONTENT_GRANTS, type ContentGrantDoc } from './content-access.projection';

export interface AggregateQuery extends ListQuery {
  /** Only users whose effective role is this one. */
  role?: Role;
}

/** What every list here takes: the kind of resource, its id, the list's query, the caller. */
const LIST_ARGS = [
  arg.oneOf('kind', CONTENT_KINDS),
  arg.id('resourceId'),
  arg.object<AggregateQuery>('query'),
  arg.viewer(),
] as const;

/** Who has been given access to a space or collection, and who can reach it at all. */
@Injectable()
export class PermissionQueries {
  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    private readonly access: Access,
    private readonly urls: Urls,
    private readonly teams: TeamPresenter,
  ) {}

  private grants(resourceId: string, grantee: 'user' | 'team', query: ListQuery) {
    return this.views.find(
      CONTENT_GRANTS,
      pageQuery(query, { where: { resource: resourceId, grantee }, orderBy: 'grantedAt' }),
    );
  }

  private async user(userId: string) {
    return presentUser(this.urls, userId, await this.views.get(USERS, userId));
  }

  /** GitBook's `UserContentPermission` items: the users granted a role on the resource itself. */
  @Remote(...LIST_ARGS)
  async users(kind: ContentKind, resourceId: string, query: ListQuery, viewer: Viewer) {
    await this.access.content(resourceId, viewer, WHAT[kind]);
    const page = await this.grants(resourceId, 'user', query);
    const items = await Promise.all(
      page.items.map(async (grant) => ({ permission: grant.role, user: await this.user(grant.granteeId) })),
    );
    return toList({ ...page, items }, (item) => item);
  }

  /** The teams granted a role on the resource itself, each with GitBook's `OrganizationTeam`. */
  @Remote(...LIST_ARGS)
  async teamGrants(kind: ContentKind, resourceId: string, query: ListQuery, viewer: Viewer) {
    const { organization } = await this.access.content(resourceId, viewer, WHAT[kind]);
    const role = await this.access.roleIn(organization, viewer.userId);
    const page = await this.grants(resourceId, 'team', query);
    const present = async (grant: ContentGrantDoc) => {
      const team = await this.views.get(TEAMS, grant.granteeId);
      const own = await this.views.get(TEAM_MEMBERS, `${grant.granteeId}:${viewer.userId}`);
      return (
        team && { permission: grant.role, team: await this.teams.present(team, role, own?.role ?? null) }
      );
    };
    const items = (await Promise.all(page.items.map(present))).filter((item) => item !== null);
    return toList({ ...page, items }, (item) => item);
  }

  /**
   * Every member or guest of the organization who can reach the resource, with their effective role
   * (`effectiveRole`), in the order they joined; computed over the organization's members.
   */
  @Remote(...LIST_ARGS)
  async aggregate(kind: ContentKind, resourceId: string, query: AggregateQuery, viewer: Viewer) {
    const { organization } = await this.access.content(resourceId, viewer, WHAT[kind]);
    const members = await this.views.find(MEMBERS, {
      where: { organization },
      orderBy: 'joinedAt',
      limit: FAN_OUT_LIMIT,
    });
    const reach: { userId: string; permission: Role }[] = [];
    for (const member of members.items) {
      const permission = await this.access.roleOf(resourceId, member.userId);
      if (permission && (query.role === undefined || permission === query.role))
        reach.push({ userId: member.userId, permission });
    }
    const page = offsetPage(reach, query, query.limit ?? 50);
    const items = await Promise.all(
      page.items.map(async ({ userId, permission }) => ({ permission, user: await this.user(userId) })),
    );
    return { ...page.next, count: reach.length, items };
  }
}
