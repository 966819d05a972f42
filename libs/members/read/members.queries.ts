import { USERS } from '@app/identity/read/identity.projection';
import { Access, MEMBERS, type MemberDoc, type Viewer } from '@app/platform/auth/access';
import { memberKey } from '@app/platform/auth/member-key';
import { notFound } from '@app/platform/domain/decider';
import type { Role } from '@app/platform/domain/roles';
import {
  DEFAULT_PAGE_SIZE,
  type ListQuery,
  offsetPage,
  pageQuery,
  toList,
} from '@app/platform/http/pagination';
import { FAN_OUT_LIMIT } from '@app/platform/projector/projection';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { SpacePresenter } from '@app/spaces/read/space.presenter';
import { SPACES, type SpaceDoc } from '@app/spaces/read/space.projection';
import { TeamPresenter } from '@app/teams/read/team.presenter';
import { TEAM_MEMBERS, TEAMS } from '@app/teams/read/team.projection';
import { Inject, Injectable } from '@nestjs/common';
import { MemberPresenter } from './member.presenter';
import { MEMBER_DETAILS } from './member.projection';

export type MemberSort = 'joinedAt' | 'lastSeenAt' | 'name';

export interface ListMembersQuery extends ListQuery {
  order?: 'asc' | 'desc';
  /** A role, or `guest` for members without one. */
  role?: Role | 'guest';
  /** Case-insensitive substring of the display name or the email. */
  search?: string;
  sort?: MemberSort;
}

export interface MemberTeamsQuery extends ListQuery {
  /** Case-insensitive substring of the team's title. */
  title?: string;
}

export interface MemberSpacesQuery extends ListQuery {
  order?: 'asc' | 'desc';
}

/** More members or teams than an organization has; filtered lists are read whole and paged in memory. */
const ALL = 10_000;
const DEFAULT_LIMIT = 50;

@Injectable()
export class MemberQueries {
  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    private readonly access: Access,
    private readonly presenter: MemberPresenter,
    private readonly teams: TeamPresenter,
    private readonly spaces: SpacePresenter,
  ) {}

  private async membership(organization: string, userId: string): Promise<MemberDoc> {
    const member = await this.views.get(MEMBERS, memberKey(organization, userId));
    if (!member) throw notFound('Member not found');
    return member;
  }

  /** Spaces a member can see: every live space of the organization, none for a guest (no grants yet). */
  private async visibleSpaces(organization: string): Promise<number> {
    return (await this.views.find(SPACES, { where: { organization, deleted: false }, limit: 0 })).count;
  }

  private async present(member: MemberDoc, spaces: number) {
    const [user, details, teams] = await Promise.all([
      this.views.get(USERS, member.userId),
      this.views.get(MEMBER_DETAILS, memberKey(member.organization, member.userId)),
      this.views.find(TEAM_MEMBERS, {
        where: { userId: member.userId, organization: member.organization },
        limit: 0,
      }),
    ]);
    return this.presenter.present({
      member,
      user,
      details,
      teams: teams.count,
      spaces: member.role === null ? 0 : spaces,
    });
  }

  @Remote(arg.id('organization'), arg.id('userId'), arg.viewer())
  async get(organization: string, userId: string, viewer: Viewer) {
    await this.access.member(organization, viewer, 'Organization');
    const member = await this.membership(organization, userId);
    return this.present(member, await this.visibleSpaces(organization));
  }

  @Remote(arg.id('organization'), arg.object<ListMembersQuery>('query'), arg.viewer())
  async list(organization: string, query: ListMembersQuery, viewer: Viewer) {
    await this.access.member(organization, viewer, 'Organization');
    const spaces = await this.visibleSpaces(organization);
    const direction = query.order ?? 'desc';
    const sort = query.sort ?? 'joinedAt';
    if (sort === 'joinedAt' && query.role === undefined && query.search === undefined) {
      const page = await this.views.find(
        MEMBERS,
        pageQuery(query, { where: { organization }, orderBy: 'joinedAt', direction }),
      );
      const items = await Promise.all(page.items.map((member) => this.present(member, spaces)));
      return toList({ ...page, items }, (item) => item);
    }
    let members = (
      await this.views.find(MEMBERS, { where: { organization }, orderBy: 'joinedAt', limit: ALL })
    ).items;
    if (query.role !== undefined) {
      const role = query.role === 'guest' ? null : query.role;
      members = members.filter((member) => member.role === role);
    }
    const users = new Map(
      await Promise.all(members.map(async (m) => [m.userId, await this.views.get(USERS, m.userId)] as const)),
    );
    if (query.search !== undefined) {
      const needle = query.search.toLowerCase();
      members = members.filter((m) => {
        const user = users.get(m.userId);
        return user?.displayName.toLowerCase().includes(needle) || user?.email.toLowerCase().includes(needle);
      });
    }
    let keyed: { member: MemberDoc; key: string }[];
    if (sort === 'lastSeenAt') {
      // Only members seen at least once: the active ones.
      const details = await this.views.find(MEMBER_DETAILS, { where: { organization }, limit: ALL });
      const seen = new Map(details.items.map((d) => [d.userId, d.lastSeenAt]));
      keyed = members.flatMap((member) => {
        const at = seen.get(member.userId);
        return at ? [{ member, key: at }] : [];
      });
    } else if (sort === 'name') {
      keyed = members.map((member) => ({
        member,
        key: (users.get(member.userId)?.displayName ?? member.userId).toLowerCase(),
      }));
    } else {
      keyed = members.map((member) => ({ member, key: member.joinedAt }));
    }
    const sign = direction === 'asc' ? 1 : -1;
    keyed.sort(
      (a, b) => sign * (a.key < b.key ? -1 : a.key > b.key ? 1 : a.member.userId < b.member.userId ? -1 : 1),
    );
    const page = offsetPage(keyed, query, query.limit ?? DEFAULT_LIMIT);
    const items = await Promise.all(page.items.map(({ member }) => this.present(member, spaces)));
    return { ...page.next, count: keyed.length, items };
  }

  /** The member's teams, by title, with their role in each: one indexed lookup of their memberships. */
  @Remote(arg.id('organization'), arg.id('userId'), arg.object<MemberTeamsQuery>('query'), arg.viewer())
  async listTeams(organization: string, userId: string, query: MemberTeamsQuery, viewer: Viewer) {
    const role = await this.access.member(organization, viewer, 'Organization');
    await this.membership(organization, userId);
    const [memberships, viewerTeams] = await Promise.all([
      this.views.find(TEAM_MEMBERS, { where: { userId, organization }, limit: ALL }),
      this.views.find(TEAM_MEMBERS, { where: { userId: viewer.userId, organization }, limit: ALL }),
    ]);
    const viewerRoles = new Map(viewerTeams.items.map((m) => [m.team, m.role]));
    const teams = await Promise.all(
      memberships.items.map(async (m) => ({ membership: m, team: await this.views.get(TEAMS, m.team) })),
    );
    const needle = query.title?.toLowerCase();
    const listed = teams
      .flatMap(({ membership, team }) =>
        team && (needle === undefined || team.title.toLowerCase().includes(needle))
          ? [{ membership, team }]
          : [],
      )
      .sort((a, b) => a.team.title.localeCompare(b.team.title) || (a.team.id < b.team.id ? -1 : 1));
    const page = offsetPage(listed, query, query.limit ?? DEFAULT_LIMIT);
    return {
      ...page.next,
      count: listed.length,
      items: await Promise.all(
        page.items.map(async ({ membership, team }) => ({
          team: await this.teams.present(team, role, viewerRoles.get(team.id) ?? null),
          member: { role: membership.role },
        })),
      ),
    };
  }

  /**
   * The spaces the member can reach, each with their effective permission there, among those the caller
   * can see (presented with the caller's own permissions).
   */
  @Remote(arg.id('organization'), arg.id('userId'), arg.object<MemberSpacesQuery>('query'), arg.viewer())
  async listSpaces(organization: string, userId: string, query: MemberSpacesQuery, viewer: Viewer) {
    await this.access.member(organization, viewer, 'Organization');
    await this.membership(organization, userId);
    const spaces = await this.views.find(SPACES, {
      where: { organization, deleted: false },
      orderBy: 'position',
      direction: query.order ?? 'desc',
      limit: FAN_OUT_LIMIT,
    });
    const seen = await this.access.contentRoles(
      spaces.items.map((space) => space.id),
      viewer,
    );
    const reached: { permission: Role; space: SpaceDoc; role: Role }[] = [];
    for (const space of spaces.items) {
      const role = seen.get(space.id);
      const permission = role && (await this.access.roleOf(space.id, userId));
      if (role && permission) reached.push({ permission, space, role });
    }
    const page = offsetPage(reached, query, query.limit ?? DEFAULT_PAGE_SIZE);
    return {
      ...page.next,
      count: reached.length,
      items: page.items.map(({ permission, space, role }) => ({
        permission,
        space: this.spaces.present(space, role),
      })),
    };
  }
}
