import { Access, type Viewer } from '@app/platform/auth/access';
import { notFound } from '@app/platform/domain/decider';
import { withEtag } from '@app/platform/http/etag';
import {
  DEFAULT_PAGE_SIZE,
  type ListQuery,
  MAX_PAGE_SIZE,
  offsetPage,
  pageQuery,
  toList,
} from '@app/platform/http/pagination';
import {
  type CollectionName,
  type Doc,
  type FindQuery,
  READ_STORE,
  type ReadStore,
  type Scalar,
} from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { SPACES } from '@app/spaces/read/space.projection';
import { Inject, Injectable } from '@nestjs/common';
import { templateConditions } from '../domain/adaptive-schema';
import type { SiteType } from '../domain/site.decider';
import { DEFAULT_CUSTOMIZATION } from '../domain/site-customization';
import { SitePresenter } from './site.presenter';
import { SITES, type SiteDoc } from './site.projection';
import { SITE_SPACES } from './site-structure.projection';

/** The filters of a site listing: each narrows it. */
export interface SiteListQuery extends ListQuery {
  /** Part of the title, in any case. */
  title?: string;
  published?: boolean;
  /** Any of these types. */
  type?: SiteType[];
  /** Sites having this space as a site space. */
  space?: string;
}

/** The site, when it belongs to the organization (another organization's id is not found). */
export async function siteIn(views: ReadStore, organization: string, siteId: string): Promise<SiteDoc> {
  const doc = await views.get(SITES, siteId);
  if (!doc || doc.organization !== organization) throw notFound('Site not found');
  return doc;
}

/** Members see an organization's sites, with `permissions` from their role. */
@Injectable()
export class SiteQueries {
  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    private readonly access: Access,
    private readonly presenter: SitePresenter,
  ) {}

  @Remote(arg.id('organization'), arg.id('siteId'), arg.viewer())
  async get(organization: string, siteId: string, viewer: Viewer) {
    const role = await this.access.member(organization, viewer, 'Organization');
    const doc = await siteIn(this.views, organization, siteId);
    return withEtag(this.presenter.present(doc, role), doc.streamRevision);
  }

  /** GitBook's `SiteCustomizationSettings`: the defaults, without `updatedAt`, until it is set. */
  @Remote(arg.id('organization'), arg.id('siteId'), arg.viewer())
  async customization(organization: string, siteId: string, viewer: Viewer) {
    await this.access.member(organization, viewer, 'Organization');
    const doc = await siteIn(this.views, organization, siteId);
    if (!doc.customization) return DEFAULT_CUSTOMIZATION;
    return { ...doc.customization.settings, updatedAt: doc.customization.updatedAt };
  }

  /** GitBook's `SiteAdaptiveSchema`: members read it (`viewAdaptiveSchema`). */
  @Remote(arg.id('organization'), arg.id('siteId'), arg.viewer())
  async adaptiveSchema(organization: string, siteId: string, viewer: Viewer) {
    await this.access.member(organization, viewer, 'Organization');
    return this.presenter.adaptiveSchema(await siteIn(this.views, organization, siteId));
  }

  /** A template condition per claim of the site's adaptive schema. */
  @Remote(arg.id('organization'), arg.id('siteId'), arg.viewer())
  async templateConditions(organization: string, siteId: string, viewer: Viewer) {
    const { jsonSchema } = await this.adaptiveSchema(organization, siteId, viewer);
    return { items: templateConditions(jsonSchema) };
  }

  @Remote(arg.id('organization'), arg.object<SiteListQuery>('query'), arg.viewer())
  async list(organization: string, query: SiteListQuery, viewer: Viewer) {
    const role = await this.access.member(organization, viewer, 'Organization');
    const where: Record<string, Scalar> = { organization };
    if (query.published !== undefined) where.published = query.published;
    const types = query.type ?? [];
    if (types.length === 1) where.type = types[0];
    if (types.length < 2 && query.title === undefined && query.space === undefined) {
      const page = await this.views.find(SITES, pageQuery(query, { where, orderBy: 'createdAt' }));
      return toList(page, (doc) => this.presenter.present(doc, role));
    }
    // Several types, part of a title, a space: the store matches by equality, so the organization's sites
    // (or those publishing the space) are filtered here (an organization has few sites) and paged by offset.
    const wantedTypes = new Set<string>(types);
    const title = query.title?.toLocaleLowerCase();
    const candidates =
      query.space === undefined
        ? await this.allSites(where)
        : await this.sitesPublishing(organization, query.space, where);
    const matching = candidates.filter(
      (doc) =>
        (types.length < 2 || wantedTypes.has(doc.type)) &&
        (title === undefined || doc.title.toLocaleLowerCase().includes(title)),
    );
    const page = offsetPage(matching, query, DEFAULT_PAGE_SIZE);
    return {
      ...page.next,
      count: matching.length,
      items: page.items.map((doc) => this.presenter.present(doc, role)),
    };
  }

  /**
   * The sites of the organization with the space as a site space (from the `site_spaces` view, by space),
   * in order of creation; none when the space is not a live one of the organization (a site space whose
   * space is gone is left out until its site detaches it).
   */
  private async sitesPublishing(
    organization: string,
    spaceId: string,
    where: Record<string, Scalar>,
  ): Promise<SiteDoc[]> {
    const space = await this.views.get(SPACES, spaceId);
    if (!space || space.deleted || space.organization !== organization) return [];
    const siteSpaces = await findEvery(this.views, SITE_SPACES, { where: { spaceId }, orderBy: 'id' });
    const siteIds = new Set(siteSpaces.filter((s) => s.organization === organization).map((s) => s.siteId));
    const sites: SiteDoc[] = [];
    for (const id of siteIds) {
      const doc = await this.views.get(SITES, id);
      if (doc && Object.entries(where).every(([field, value]) => doc[field as keyof SiteDoc] === value))
        sites.push(doc);
    }
    return sites.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  private allSites(where: Record<string, Scalar>): Promise<SiteDoc[]> {
    return findEvery(this.views, SITES, { where, orderBy: 'createdAt' });
  }
}

/** Every document a query matches, page after page: for the few a site holds or an organization has. */
export async function findEvery<T extends Doc>(
  views: ReadStore,
  collection: CollectionName<T>,
  query: Omit<FindQuery, 'after' | 'limit'>,
): Promise<T[]> {
  const out: T[] = [];
  let after: FindQuery['after'];
  do {
    const page = await views.find(collection, { ...query, after, limit: MAX_PAGE_SIZE });
    out.push(...page.items);
    after = page.next;
  } while (after);
  return out;
}
