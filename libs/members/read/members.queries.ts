import { USERS, type UserDoc } from '@app/identity/read/identity.projection';
import { Access, MEMBERS, type MemberDoc, type Viewer } from '@app/platform/auth/access';
import { AccessCache } from '@app/platform/auth/access-cache';
import { CONTENT_ACCESS, type ContentAccessDoc } from '@app/platform/auth/auth-views';
import { memberKey } from '@app/platform/auth/member-key';
import { effectiveRole } from '@app/platform/domain/content-access';
import { notFound } from '@app/platform/domain/decider';
import type { Role } from '@app/platform/domain/roles';
import {
  DEFAULT_PAGE_SIZE,
  decodeOffset,
  encodeOffset,
  type ListQuery,
  offsetPage,
  pageQuery,
  toList,
} from '@app/platform/http/pagination';
import { KeptReads } from '@app/platform/projector/kept-reads';
import { FAN_OUT_LIMIT } from '@app/platform/projector/projection';
import { VIEW_CHANGES, type ViewChanges } from '@app/platform/projector/view-changes';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { SpacePresenter } from '@app/spaces/read/space.presenter';
import { SPACES, type SpaceDoc } from '@app/spaces/read/space.projection';
import { TeamPresenter } from '@app/teams/read/team.presenter';
import { TEAM_MEMBERS, TEAMS } from '@app/teams/read/team.projection';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { MemberPresenter } from './member.presenter';
import { MEMBER_DETAILS } from './member.projection';
import { type Roster, type RosterEntry, Rosters } from './member-roster';

export type MemberSort = 'joinedAt' | 'lastSeenAt' | 'name';

type MemberItem = ReturnType<MemberPresenter['present']>;

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

/** Member items kept at most: a bound on memory. */
const MAX_KEPT_ITEMS = 50_000;

/** What the member lists keep in memory until the views they come from change. */
class MemberCaches {
  /** Organizations' members with their users, for filtered and searched lists. */
  readonly rosters: Rosters;
  /** Member items as presented, by membership. */
  readonly items: KeptReads<MemberItem>;
  /** The access of the organization's live spaces. */
  readonly spaceAccess: AccessCache;

  constructor(views: ReadStore, changes: ViewChanges | undefined) {
    this.rosters = new Rosters(views, changes);
    this.items = new KeptReads(changes, {
      collections: [MEMBERS, USERS, MEMBER_DETAILS, TEAM_MEMBERS, SPACES, CONTENT_ACCESS],
      capacity: MAX_KEPT_ITEMS,
    });
    this.spaceAccess = new AccessCache(changes, [SPACES, CONTENT_ACCESS]);
  }
}

@Injectable()
export class MemberQueries {
  private readonly caches: MemberCaches;

  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    private readonly access: Access,
    private readonly presenter: MemberPresenter,
    private readonly teams: TeamPresenter,
    private readonly spaces: SpacePresenter,
    @Optional() @Inject(VIEW_CHANGES) changes?: ViewChanges,
  ) {
    this.caches = new MemberCaches(views, changes);
  }

  private async membership(organization: string, userId: string): Promise<MemberDoc> {
    const member = await this.views.get(MEMBERS, memberKey(organization, userId));
    if (!member) throw notFound('Member not found');
    return member;
  }

  /** Who may do what on each live space of the organization, to count the spaces each member reaches. */
  private spaceAccess(organization: string): Promise<ContentAccessDoc[]> {
    return this.caches.spaceAccess.lookup(SPACES, organization, async () => {
      const spaces = await this.views.find(SPACES, {
        where: { organization, deleted: false },
        limit: FAN_OUT_LIMIT,
      });
      const docs = await Promise.all(spaces.items.map((space) => this.views.get(CONTENT_ACCESS, space.id)));
      return docs.filter((doc) => doc !== null);
    });
  }

  /** How many of the spaces the member reaches, by their effective role on each (`effectiveRole`). */
  private async reached(member: MemberDoc, spaces: readonly ContentAccessDoc[]): Promise<number> {
    const teams = await this.access.teamsOf(member.organization, member.userId);
    return spaces.filter((access) => effectiveRole(member.role, access, member.userId, teams) !== null)
      .length;
  }

  /** A member item; `user` when already read (undefined: read it here). */
  private present(
    member: MemberDoc,
    spaces: readonly ContentAccessDoc[],
    user?: UserDoc | null,
  ): Promise<MemberItem> {
    const key = memberKey(member.organization, member.userId);
    return this.caches.items.of(key, async () => {
      const [found, details, teams] = await Promise.all([
        user === undefined ? this.views.get(USERS, member.userId) : user,
        this.views.get(MEMBER_DETAILS, key),
        this.views.find(TEAM_MEMBERS, {
          where: { userId: member.userId, organization: member.organization },
          limit: 0,
        }),
      ]);
      return this.presenter.present({
        member,
        user: found,
        details,
        teams: teams.count,
        spaces: await this.reached(member, spaces),
      });
    });
  }

  @Remote(arg.id('organization'), arg.id('userId'), arg.viewer())
  async get(organization: string, userId: string, viewer: Viewer) {
    await this.access.member(organization, viewer, 'Organization');
    const member = await this.membership(organization, userId);
    return this.present(member, await this.spaceAccess(organization));
  }

  /**
   * The items of the roster's entries at `indexes`: those kept as they are, the others presented (and
   * only then the organization's spaces read).
   */
  private async presentEntries(organization: string, roster: Roster, indexes: readonly number[]) {
    // Kept items are taken without waiting.
    const items = indexes.map((i) => this.caches.items.peek(roster.keys[i]));
    if (!items.includes(undefined)) return items as MemberItem[];
    const spaces = await this.spaceAccess(organization);
    return Promise.all(
      items.map((item, at) => {
        const { member, user } = roster.entries[indexes[at]];
        return item ?? this.present(member, spaces, user);
      }),
    );
  }

  @Remote(arg.id('organization'), arg.object<ListMembersQuery>('query'), arg.viewer())
  async list(organization: string, query: ListMembersQuery, viewer: Viewer) {
    await this.access.member(organization, viewer, 'Organization');
    const direction = query.order ?? 'desc';
    const sort = query.sort ?? 'joinedAt';
    if (sort === 'joinedAt' && query.role === undefined && query.search === undefined) {
      const spaces = await this.spaceAccess(organization);
      const page = await this.views.find(
        MEMBERS,
        pageQuery(query, { where: { organization }, orderBy: 'joinedAt', direction }),
      );
      const items = await Promise.all(page.items.map((member) => this.present(member, spaces)));
      return toList({ ...page, items }, (item) => item);
    }
    const { roster, kept } = await this.caches.rosters.of(organization);
    // Indexes into the roster (oldest first, ties by user id); undefined: every member.
    let found = query.search === undefined ? undefined : roster.search(query.search, kept);
    if (query.role !== undefined) {
      const role = query.role === 'guest' ? null : query.role;
      found = roster.where(found, ({ member }) => member.role === role);
    }
    const limit = query.limit ?? DEFAULT_LIMIT;
    if (sort === 'joinedAt') {
      // The roster's own order, or its reverse: only the page is picked.
      const count = found ? found.length : roster.entries.length;
      const offset = decodeOffset(query.page);
      const picked: number[] = [];
      for (let p = offset; p < Math.min(count, offset + limit); p++) {
        const at = direction === 'asc' ? p : count - 1 - p;
        picked.push(found ? found[at] : at);
      }
      const more = offset + limit < count;
      return {
        ...(more ? { next: { page: encodeOffset(offset + limit) } } : {}),
        count,
        items: await this.presentEntries(organization, roster, picked),
      };
    }
    const members = found ?? roster.entries.map((_, i) => i);
    // `at`: the entry's index in the roster.
    let keyed: { at: number; entry: RosterEntry; key: string }[];
    if (sort === 'lastSeenAt') {
      // Only members seen at least once: the active ones.
      const details = await this.views.find(MEMBER_DETAILS, { where: { organization }, limit: ALL });
      const seen = new Map(details.items.map((d) => [d.userId, d.lastSeenAt]));
      keyed = members.flatMap((at) => {
        const entry = roster.entries[at];
        const key = seen.get(entry.member.userId);
        return key ? [{ at, entry, key }] : [];
      });
    } else {
      keyed = members.map((at) => {
        const entry = roster.entries[at];
        return { at, entry, key: (entry.user?.displayName ?? entry.member.userId).toLowerCase() };
      });
    }
    const sign = direction === 'asc' ? 1 : -1;
    keyed.sort(
      (a, b) =>
        sign *
        (a.key < b.key ? -1 : a.key > b.key ? 1 : a.entry.member.userId < b.entry.member.userId ? -1 : 1),
    );
    const page = offsetPage(keyed, query, limit);
    const items = await this.presentEntries(
      organization,
      roster,
      page.items.map(({ at }) => at),
    );
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
