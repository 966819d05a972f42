import type { FeatureManifest } from '@app/platform/feature/feature';
import { siteAggregate } from './domain/site.aggregate';
import { siteAuditSubjects } from './domain/site.audit';
import { DETACH_JOB } from './domain/site-structure';
import { siteProjection } from './read/site.projection';
import { siteStructureProjection } from './read/site-structure.projection';

/** Docs sites of an organization: their settings, and whether they are published. */
export const sitesFeature: FeatureManifest = {
  name: 'sites',
  module: async () => (await import('./sites.module')).SitesModule,
  aggregates: [siteAggregate],
  projections: [siteProjection, siteStructureProjection],
  audited: siteAuditSubjects,
  jobs: [DETACH_JOB],
  fixtures: {
    siteId: async ({ call, ids, label }) =>
      (
        (await call('POST', `/v1/orgs/${ids.organizationId}/sites`, { title: `${label} site` })) as {
          id: string;
        }
      ).id,
    // A site space of the site, publishing the space (spaces resolve before sites).
    siteSpaceId: async ({ call, ids }) =>
      (
        (await call('POST', `/v1/orgs/${ids.organizationId}/sites/${ids.siteId}/site-spaces`, {
          spaceId: ids.spaceId,
        })) as { id: string }
      ).id,
    siteSectionId: async ({ call, ids }) =>
      (
        (await call('POST', `/v1/orgs/${ids.organizationId}/sites/${ids.siteId}/sections`, {
          spaceId: ids.spaceId,
        })) as { id: string }
      ).id,
  },
};
