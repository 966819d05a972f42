import { USERS } from '@app/identity/read/identity.projection';
import { Access, MEMBERS, type Viewer } from '@app/platform/auth/access';
import { memberKey } from '@app/platform/auth/member-key';
import { notFound } from '@app/platform/domain/decider';
import { withEtag } from '@app/platform/http/etag';
import { type ListQuery, offsetPage, pageQuery, toList } from '@app/platform/http/pagination';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { Inject, Injectable } from '@nestjs/common';
import type { TeamRole } from '../domain/team.decider';
import { TeamPresenter } from './team.presenter';
import { TEAM_MEMBERS, TEAMS, type TeamDoc, teamMemberKey } from './team.projection';

export interface ListTeamsQuery extends ListQuery {
  /** A member id: only the teams they can manage (all of them for an organization admin). */
  owner?: string;
  /** Case-insensitive substring of the title. */
  title?: string;
}

/** More teams than an organization has; filtered lists are read whole and paged in memory. */
const ALL = 10_000;

@Injectable()
export class TeamQueries {
  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    private readonly access: Access,
    private readonly presenter: TeamPresenter,
  ) {}

  /** The team, when it belongs to the organization; a 404 otherwise. */
  private async team(organization: string, teamId: string): Promise<TeamDoc> {
    const doc = await this.views.get(TEAMS, teamId);
    if (!doc || doc.organization !== organization) throw notFound('Team not found');
    return doc;
  }

  private async teamRole(teamId: string, userId: string): Promise<TeamRole | null> {
    return (await this.views.get(TEAM_MEMBERS, teamMemberKey(teamId, userId)))?.role ?? null;
  }

  @Remote(arg.id('organization'), arg.id('teamId'), arg.viewer())
  async get(organization: string, teamId: string, viewer: Viewer) {
    const role = await this.access.member(organization, viewer, 'Organization');
    const doc = await this.team(organization, teamId);
    const teamRole = await this.teamRole(teamId, viewer.userId);
    return withEtag(await this.presenter.present(doc, role, teamRole), doc.streamRevision);
  }

  @Remote(arg.id('organization'), arg.object<ListTeamsQuery>('query'), arg.viewer())
  async list(organization: string, query: ListTeamsQuery, viewer: Viewer) {
    const role = await this.access.member(organization, viewer, 'Organization');
    const viewerTeams = await this.teamsOf(organization, viewer.userId);
    const present = (doc: TeamDoc) => this.presenter.present(doc, role, viewerTeams.get(doc.id) ?? null);
    if (query.owner === undefined && query.title === undefined) {
      const page = await this.views.find(
        TEAMS,
        pageQuery(query, { where: { organization }, orderBy: 'title' }),
      );
      return toList({ ...page, items: await Promise.all(page.items.map(present)) }, (team) => team);
    }
    let docs = (await this.views.find(TEAMS, { where: { organization }, orderBy: 'title', limit: ALL }))
      .items;
    if (query.title !== undefined) {
      const needle = query.title.toLowerCase();
      docs = docs.filter((doc) => doc.title.toLowerCase().includes(needle));
    }
    if (query.owner !== undefined && (await this.access.roleIn(organization, query.owner)) !== 'admin') {
      const owned = await this.teamsOf(organization, query.owner);
      docs = docs.filter((doc) => owned.get(doc.id) === 'owner');
    }
    const page = offsetPage(docs, query, query.limit ?? 50);
    return { ...page.next, count: docs.length, items: await Promise.all(page.items.map(present)) };
  }

  /** The teams a user is in within an organization, with their role in each: one indexed lookup. */
  private async teamsOf(organization: string, userId: string): Promise<Map<string, TeamRole>> {
    const page = await this.views.find(TEAM_MEMBERS, { where: { userId, organization }, limit: ALL });
    return new Map(page.items.map((m) => [m.team, m.role]));
  }

  @Remote(arg.id('organization'), arg.id('teamId'), arg.object<ListQuery>('query'), arg.viewer())
  async listMembers(organization: string, teamId: string, query: ListQuery, viewer: Viewer) {
    await this.access.member(organization, viewer, 'Organization');
    await this.team(organization, teamId);
    const page = await this.views.find(
      TEAM_MEMBERS,
      pageQuery(query, { where: { team: teamId }, orderBy: 'addedAt' }),
    );
    const views = await Promise.all(
      page.items.map(async (membership) => {
        const [member, user, teams] = await Promise.all([
          this.views.get(MEMBERS, memberKey(organization, membership.userId)),
          this.views.get(USERS, membership.userId),
          this.views.find(TEAM_MEMBERS, { where: { userId: membership.userId, organization }, limit: 0 }),
        ]);
        return { membership, member, user, teams: teams.count };
      }),
    );
    return toList({ ...page, items: views }, (view) => this.presenter.presentMember(view));
  }
}
