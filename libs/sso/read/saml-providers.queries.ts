import type { Viewer } from '@app/platform/auth/access';
import { notFound } from '@app/platform/domain/decider';
import { withEtag } from '@app/platform/http/etag';
import { type ListQuery, pageQuery, toList } from '@app/platform/http/pagination';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { Inject, Injectable } from '@nestjs/common';
import { SamlProviderPresenter } from './saml-provider.presenter';
import { SAML_PROVIDERS } from './saml-provider.projection';

/** Far more providers than an organization has; the login list is not paged (GitBook's is not). */
const MAX_LOGINS = 1000;

/** Reads of SAML providers. The route checked the caller's role in the organization (`@RequiresRole`). */
@Injectable()
export class SamlProviderQueries {
  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    private readonly presenter: SamlProviderPresenter,
  ) {}

  @Remote(arg.id('organization'), arg.id('samlProviderId'), arg.viewer())
  async get(organization: string, samlProviderId: string, _viewer: Viewer) {
    const doc = await this.views.get(SAML_PROVIDERS, samlProviderId);
    if (!doc || doc.organization !== organization) throw notFound('SAML provider not found');
    return withEtag(this.presenter.present(doc), doc.streamRevision);
  }

  @Remote(arg.id('organization'), arg.object<ListQuery>('query'), arg.viewer())
  async list(organization: string, query: ListQuery, _viewer: Viewer) {
    const page = await this.views.find(
      SAML_PROVIDERS,
      pageQuery(query, { where: { organization }, orderBy: 'createdAt' }),
    );
    return toList(page, (doc) => this.presenter.present(doc));
  }

  /** The providers members can sign in with: those fully configured. */
  @Remote(arg.id('organization'), arg.viewer())
  async logins(organization: string, _viewer: Viewer) {
    const page = await this.views.find(SAML_PROVIDERS, {
      where: { organization },
      orderBy: 'createdAt',
      limit: MAX_LOGINS,
    });
    const usable = page.items.filter((doc) => doc.entityID && doc.ssoURL && doc.certificate);
    return { items: usable.map((doc) => this.presenter.login(doc)) };
  }
}
