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
import { READ_STORE, type ReadStore, type Scalar } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { Inject, Injectable } from '@nestjs/common';
import type { SiteType } from '../domain/site.decider';
import { DEFAULT_CUSTOMIZATION } from '../domain/site-customization';
import { SitePresenter } from './site.presenter';
import { SITES, type SiteDoc } from './site.projection';

/** The filters of a site listing: each narrows it to the sites whose field equals it. */
export interface SiteListQuery extends ListQuery {
  title?: string;
  published?: boolean;
  type?: SiteType[];
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

  @Remote(arg.id('organization'), arg.object<SiteListQuery>('query'), arg.viewer())
  async list(organization: string, query: SiteListQuery, viewer: Viewer) {
    const role = await this.access.member(organization, viewer, 'Organization');
    const where: Record<string, Scalar> = { organization };
    if (query.title !== undefined) where.title = query.title;
    if (query.published !== undefined) where.published = query.published;
    const types = query.type ?? [];
    if (types.length === 1) where.type = types[0];
    if (types.length < 2) {
      const page = await this.views.find(SITES, pageQuery(query, { where, orderBy: 'createdAt' }));
      return toList(page, (doc) => this.presenter.present(doc, role));
    }
    // Several types: the store matches by equality, so the organization's sites are filtered here (an
    // organization has few sites) and paged by offset.
    const wanted = new Set<string>(types);
    const matching = (await this.allSites(where)).filter((doc) => wanted.has(doc.type));
    const page = offsetPage(matching, query, DEFAULT_PAGE_SIZE);
    return {
      ...page.next,
      count: matching.length,
      items: page.items.map((doc) => this.presenter.present(doc, role)),
    };
  }

  private async allSites(where: Record<string, Scalar>): Promise<SiteDoc[]> {
    const out: SiteDoc[] = [];
    let after: { value: Scalar; id: string } | undefined;
    do {
      const page = await this.views.find(SITES, { where, orderBy: 'createdAt', after, limit: MAX_PAGE_SIZE });
      out.push(...page.items);
      after = page.next;
    } while (after);
    return out;
  }
}
