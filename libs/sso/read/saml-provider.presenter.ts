import { Urls } from '@app/platform/http/urls';
import { Injectable } from '@nestjs/common';
import { serviceEndpoints } from '../domain/service-endpoints';
import type { SamlProviderDoc } from './saml-provider.projection';

@Injectable()
export class SamlProviderPresenter {
  constructor(private readonly urls: Urls) {}

  /**
   * GitBook's shape. Settings not given yet are empty strings (the schema requires them), and the
   * provider is `pending` until its entity id, sign-in URL and certificate are all set. `defaultTeam` is
   * a Team in GitBook's shape and is left out: the id is kept, the team is not looked up here.
   */
  present(doc: SamlProviderDoc) {
    return {
      object: 'saml-provider' as const,
      id: doc.id,
      label: doc.label,
      ssoURL: doc.ssoURL ?? '',
      entityID: doc.entityID ?? '',
      certificate: doc.certificate ?? '',
      defaultRole: doc.defaultRole,
      createdAt: doc.createdAt,
      status: doc.entityID && doc.ssoURL && doc.certificate ? ('active' as const) : ('pending' as const),
      service: this.service(doc.id),
      urls: { location: this.urls.api(`/orgs/${doc.organization}/saml/${doc.id}`) },
    };
  }

  /** What an organization's sign-in page offers for the provider. */
  login(doc: SamlProviderDoc) {
    return { id: doc.id, label: doc.label, startURL: this.service(doc.id).startURL };
  }

  /** This server as the service provider of the provider: where the identity provider sends users back. */
  private service(id: string) {
    return serviceEndpoints((path) => this.urls.api(path), id);
  }
}
