import type { Role } from '@app/platform/domain/roles';
import { documents, projection } from '@app/platform/projector/projection';
import { collectionName, type Doc } from '@app/platform/readstore/read-store.port';
import type { SamlProviderEvent } from '../domain/saml-provider.decider';

export interface SamlProviderDoc extends Doc {
  organization: string;
  label: string;
  entityID: string | null;
  ssoURL: string | null;
  certificate: string | null;
  defaultTeam: string | null;
  defaultRole: Role | null;
  createdAt: string;
  updatedAt: string;
  /** Revision of the provider's stream: its ETag. */
  streamRevision: number;
}

export const SAML_PROVIDERS = collectionName<SamlProviderDoc>('saml_providers');

/** The SAML providers of organizations; a deleted provider is gone from the view. */
export const samlProviderProjection = projection<SamlProviderEvent>(
  'saml_providers',
  [{ collection: SAML_PROVIDERS, fields: ['organization', 'createdAt'] }],
  {
    SamlProviderCreated: documents(SAML_PROVIDERS).put((e) => {
      const { samlProviderId, ...provider } = e.data;
      return { id: samlProviderId, ...provider, updatedAt: e.data.createdAt, streamRevision: e.revision };
    }),
    SamlProviderUpdated: documents(SAML_PROVIDERS).update(
      (e) => e.data.samlProviderId,
      (doc, e) => ({ ...doc, ...e.data.changes, updatedAt: e.data.updatedAt, streamRevision: e.revision }),
    ),
    SamlProviderDeleted: documents(SAML_PROVIDERS).delete((e) => e.data.samlProviderId),
  },
);
