import { Injectable } from '@nestjs/common';
import { ShareLinkKeys, sharedUrl } from './share-link.keys';
import type { ShareLinkDoc } from './share-link.projection';
import { SitePresenter } from './site.presenter';
import type { SiteDoc } from './site.projection';

/** GitBook's `ShareLink`. */
@Injectable()
export class ShareLinkPresenter {
  constructor(
    private readonly sites: SitePresenter,
    private readonly keys: ShareLinkKeys,
  ) {}

  /**
   * `urls.published` is the site's published URL with the link's key as `shareKey` (the query parameter
   * GitBook's published-site lookup takes); like the site's, it is absent while the site is unpublished.
   */
  present(doc: ShareLinkDoc, site: SiteDoc) {
    const published = this.sites.present(site, 'read').urls.published;
    return {
      object: 'share-link' as const,
      id: doc.id,
      createdAt: doc.createdAt,
      name: doc.name,
      active: doc.active,
      urls: published === undefined ? {} : { published: sharedUrl(published, this.keys.keyOf(doc.id)) },
    };
  }
}
