import type { FeatureManifest } from '@app/platform/feature/feature';
import { samlProviderAggregate } from './domain/saml-provider.aggregate';
import { samlProviderAuditSubjects } from './domain/saml-provider.audit';
import { samlSignInAggregate } from './domain/saml-sign-in.aggregate';
import { SSO_DEFAULT_TEAM_JOB } from './domain/saml-sign-in.decider';
import { samlProviderProjection } from './read/saml-provider.projection';

/** Single sign-on: an organization's SAML identity providers, and signing in with them. */
export const ssoFeature: FeatureManifest = {
  name: 'sso',
  module: async () => (await import('./sso.module')).SsoModule,
  aggregates: [samlProviderAggregate, samlSignInAggregate],
  projections: [samlProviderProjection],
  audited: samlProviderAuditSubjects,
  jobs: [SSO_DEFAULT_TEAM_JOB],
  fixtures: {
    samlProviderId: async ({ call, ids, label }) =>
      (
        (await call('POST', `/v1/orgs/${ids.organizationId}/saml`, {
          label: `${label} IdP`.slice(0, 30),
        })) as {
          id: string;
        }
      ).id,
  },
};
