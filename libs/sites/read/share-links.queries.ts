import { Access, type Viewer } from '@app/platform/auth/access';
import { fold, notFound } from '@app/platform/domain/decider';
import { EVENT_STORE, type EventStore } from '@app/platform/eventstore/event-store.port';
import { withEtag } from '@app/platform/http/etag';
import {
  DEFAULT_PAGE_SIZE,
  type ListQuery,
  offsetPage,
  pageQuery,
  toList,
} from '@app/platform/http/pagination';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { Inject, Injectable } from '@nestjs/common';
import { opens, type ShareLinkEvent, shareLinkDecider, shareLinkStream } from '../domain/share-link.decider';
import { SHARE_LINK_KEY_PATTERN, ShareLinkKeys } from './share-link.keys';
import { ShareLinkPresenter } from './share-link.presenter';
import { SHARE_LINKS, type ShareLinkDoc } from './share-link.projection';
import { SITES } from './site.projection';
import { findEvery, siteIn } from './sites.queries';

export interface ShareLinkListQuery extends ListQuery {
  /** GitBook's search of a site's links: by name (a case-insensitive part of it) or by key (all of it). */
  search?: string;
}

/** What a share key opens: the site, through which link. */
export interface SharedSite {
  organization: string;
  siteId: string;
  shareLinkId: string;
}

/** The link, when it belongs to the site of the organization (another's id is not found). */
export async function shareLinkIn(
  views: ReadStore,
  organization: string,
  siteId: string,
  shareLinkId: string,
): Promise<ShareLinkDoc> {
  const doc = await views.get(SHARE_LINKS, shareLinkId);
  if (!doc || doc.organization !== organization || doc.siteId !== siteId)
    throw notFound('Share link not found');
  return doc;
}

/** Share links of a site, and which site a visitor's key opens. */
@Injectable()
export class ShareLinkQueries {
  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly access: Access,
    private readonly keys: ShareLinkKeys,
    private readonly presenter: ShareLinkPresenter,
  ) {}

  @Remote(arg.id('organization'), arg.id('siteId'), arg.id('shareLinkId'), arg.viewer())
  async get(organization: string, siteId: string, shareLinkId: string, viewer: Viewer) {
    await this.access.member(organization, viewer, 'Organization');
    const site = await siteIn(this.views, organization, siteId);
    const doc = await shareLinkIn(this.views, organization, siteId, shareLinkId);
    return withEtag(this.presenter.present(doc, site), doc.streamRevision);
  }

  @Remote(arg.id('organization'), arg.id('siteId'), arg.object<ShareLinkListQuery>('query'), arg.viewer())
  async list(organization: string, siteId: string, query: ShareLinkListQuery, viewer: Viewer) {
    await this.access.member(organization, viewer, 'Organization');
    const site = await siteIn(this.views, organization, siteId);
    const present = (doc: ShareLinkDoc) => this.presenter.present(doc, site);
    if (query.search === undefined) {
      const page = await this.views.find(
        SHARE_LINKS,
        pageQuery(query, { where: { siteId }, orderBy: 'createdAt' }),
      );
      return toList(page, present);
    }
    // A site has few links: they are matched here and paged by offset.
    const search = query.search.toLowerCase();
    const keyHash = this.keys.hashOf(query.search);
    const matching = (await this.allOf(siteId)).filter(
      (doc) => doc.name.toLowerCase().includes(search) || doc.keyHash === keyHash,
    );
    const page = offsetPage(matching, query, DEFAULT_PAGE_SIZE);
    return { ...page.next, count: matching.length, items: page.items.map(present) };
  }

  /**
   * The site a share key opens, or null: no such key, its link deactivated or deleted, or its site gone.
   * The key's hash names the link in the views (a hash never changes, and a link's key reaches clients
   * only after its creation is in the views); whether it opens is decided on the link's stream, so a
   * deactivation or a deletion holds from the moment it is written, before the views follow.
   */
  @Remote(arg.text('key', SHARE_LINK_KEY_PATTERN, 'a share key'))
  async resolve(key: string): Promise<SharedSite | null> {
    if (!SHARE_LINK_KEY_PATTERN.test(key)) return null;
    const found = await this.views.find(SHARE_LINKS, { where: { keyHash: this.keys.hashOf(key) }, limit: 1 });
    const doc = found.items[0];
    if (!doc) return null;
    const recorded = (await this.events.readStream(shareLinkStream(doc.id))) as unknown as ShareLinkEvent[];
    if (!opens(fold(shareLinkDecider, recorded))) return null;
    const site = await this.views.get(SITES, doc.siteId);
    if (!site || site.organization !== doc.organization) return null;
    return { organization: doc.organization, siteId: doc.siteId, shareLinkId: doc.id };
  }

  private allOf(siteId: string): Promise<ShareLinkDoc[]> {
    return findEvery(this.views, SHARE_LINKS, { where: { siteId }, orderBy: 'createdAt' });
  }
}
