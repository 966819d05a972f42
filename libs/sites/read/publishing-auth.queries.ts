import { Access, type Viewer } from '@app/platform/auth/access';
import type { Config } from '@app/platform/config/config';
import { CONFIG } from '@app/platform/config/config.module';
import { derivedSecret } from '@app/platform/domain/ids';
import { withEtag } from '@app/platform/http/etag';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { Inject, Injectable } from '@nestjs/common';
import { DEFAULT_PUBLISHING_AUTH } from '../domain/publishing-auth.decider';
import { PUBLISHING_AUTHS } from './publishing-auth.projection';
import { siteIn } from './sites.queries';

/**
 * The private key that signs a site's visitor tokens: derived from the server's signing key, the site
 * and the key's generation, so it is never stored, and regenerating it (a new generation) retires the
 * old one everywhere at once.
 */
export function publishingAuthKey(signingKey: string, siteId: string, generation: number): string {
  return derivedSecret(signingKey, `site-publishing-auth:${siteId}:${generation}`);
}

/** GitBook's `SitePublishingAuth` of a site: what is set, or the defaults. */
@Injectable()
export class PublishingAuthQueries {
  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    @Inject(CONFIG) private readonly config: Config,
    private readonly access: Access,
  ) {}

  @Remote(arg.id('organization'), arg.id('siteId'), arg.viewer())
  async get(organization: string, siteId: string, viewer: Viewer) {
    await this.access.member(organization, viewer, 'Organization');
    await siteIn(this.views, organization, siteId);
    const doc = await this.views.get(PUBLISHING_AUTHS, siteId);
    const { backend, fallbackURL, logoutURL, keyGeneration } = doc ?? DEFAULT_PUBLISHING_AUTH;
    return withEtag(
      {
        object: 'publishing-auth' as const,
        backend,
        privateKey: publishingAuthKey(this.config.signingKey, siteId, keyGeneration),
        ...(fallbackURL !== null ? { fallbackURL } : {}),
        ...(logoutURL !== null ? { logoutURL } : {}),
      },
      doc?.streamRevision,
    );
  }
}
