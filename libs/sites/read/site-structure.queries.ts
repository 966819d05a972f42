import { Access, type Viewer } from '@app/platform/auth/access';
import { notFound } from '@app/platform/domain/decider';
import { DEFAULT_PAGE_SIZE, type ListQuery, offsetPage } from '@app/platform/http/pagination';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { SPACES, type SpaceDoc } from '@app/spaces/read/space.projection';
import { Inject, Injectable } from '@nestjs/common';
import { allSiteSpaces, EMPTY_STRUCTURE, groupsOf } from '../domain/site-structure';
import { ShareLinkQueries } from './share-links.queries';
import { SiteStructurePresenter, type StructureContext } from './site-structure.presenter';
import { SITE_STRUCTURES } from './site-structure.projection';
import { siteIn } from './sites.queries';

/** A read of the structure: with `shareKey`, the key of an active share link of the site. */
export interface SiteStructureQuery {
  shareKey?: string;
}

export interface SiteSectionListQuery extends ListQuery, SiteStructureQuery {}

export interface SiteSpaceListQuery extends SiteSectionListQuery {
  /** true: only the default site space; false: the others; absent: all. */
  default?: boolean;
}

/** Members read a site's structure, its sections and its site spaces, in the site's order. */
@Injectable()
export class SiteStructureQueries {
  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    private readonly access: Access,
    private readonly presenter: SiteStructurePresenter,
    private readonly shareLinks: ShareLinkQueries,
  ) {}

  /**
   * The site and its structure, with the spaces of the organization its site spaces publish, and the share
   * key named when it opens the site: looked up by its hash, and refused (404 naming it) unless the key is
   * that of an active share link of this site, as its link's stream says at this moment.
   */
  private async context(
    organization: string,
    siteId: string,
    viewer: Viewer,
    query: SiteStructureQuery = {},
  ): Promise<StructureContext> {
    const role = await this.access.member(organization, viewer, 'Organization');
    const site = await siteIn(this.views, organization, siteId);
    const { shareKey } = query;
    if (shareKey !== undefined) {
      const shared = await this.shareLinks.resolve(shareKey);
      if (shared?.siteId !== siteId || shared.organization !== organization)
        throw notFound('shareKey: the site has no active share link with this key');
    }
    const structure = (await this.views.get(SITE_STRUCTURES, siteId))?.structure ?? EMPTY_STRUCTURE;
    const spaces = new Map<string, SpaceDoc>();
    for (const id of new Set(allSiteSpaces(structure).map(({ entry }) => entry.spaceId))) {
      const space = await this.views.get(SPACES, id);
      if (space && !space.deleted && space.organization === organization) spaces.set(id, space);
    }
    return { site, structure, spaces, role, ...(shareKey !== undefined ? { shareKey } : {}) };
  }

  @Remote(arg.id('organization'), arg.id('siteId'), arg.object<SiteStructureQuery>('query'), arg.viewer())
  async structure(organization: string, siteId: string, query: SiteStructureQuery, viewer: Viewer) {
    return this.presenter.structure(await this.context(organization, siteId, viewer, query));
  }

  @Remote(arg.id('organization'), arg.id('siteId'), arg.object<SiteSpaceListQuery>('query'), arg.viewer())
  async siteSpaces(organization: string, siteId: string, query: SiteSpaceListQuery, viewer: Viewer) {
    const all = this.presenter.siteSpaces(await this.context(organization, siteId, viewer, query));
    const matching = query.default === undefined ? all : all.filter((s) => s.default === query.default);
    return listOf(matching, query);
  }

  @Remote(arg.id('organization'), arg.id('siteId'), arg.object<SiteSectionListQuery>('query'), arg.viewer())
  async sections(organization: string, siteId: string, query: SiteSectionListQuery, viewer: Viewer) {
    const context = await this.context(organization, siteId, viewer, query);
    return listOf(
      context.structure.sections.map((s) => this.presenter.section(context, s)),
      query,
    );
  }

  @Remote(arg.id('organization'), arg.id('siteId'), arg.object<ListQuery>('query'), arg.viewer())
  async groups(organization: string, siteId: string, query: ListQuery, viewer: Viewer) {
    const context = await this.context(organization, siteId, viewer);
    return listOf(
      groupsOf(context.structure).map((g) => this.presenter.group(context, g)),
      query,
    );
  }

  @Remote(arg.id('organization'), arg.id('siteId'), arg.id('groupId'), arg.viewer())
  async group(organization: string, siteId: string, groupId: string, viewer: Viewer) {
    const context = await this.context(organization, siteId, viewer);
    const group = groupsOf(context.structure).find((g) => g.id === groupId);
    if (!group) throw notFound('Site section group not found');
    return this.presenter.group(context, group);
  }

  @Remote(arg.id('organization'), arg.id('siteId'), arg.id('siteSpaceId'), arg.viewer())
  async siteSpace(organization: string, siteId: string, siteSpaceId: string, viewer: Viewer) {
    const found = this.presenter
      .siteSpaces(await this.context(organization, siteId, viewer))
      .find((s) => s.id === siteSpaceId);
    if (!found) throw notFound('Site space not found');
    return found;
  }

  @Remote(arg.id('organization'), arg.id('siteId'), arg.id('sectionId'), arg.viewer())
  async section(organization: string, siteId: string, sectionId: string, viewer: Viewer) {
    const context = await this.context(organization, siteId, viewer);
    const section = context.structure.sections.find((s) => s.id === sectionId);
    if (!section) throw notFound('Site section not found');
    return this.presenter.section(context, section);
  }
}

/** A site's few items, paged in memory in the site's order. */
function listOf<T>(items: readonly T[], query: ListQuery) {
  const page = offsetPage(items, query, DEFAULT_PAGE_SIZE);
  return { ...page.next, count: items.length, items: page.items };
}
