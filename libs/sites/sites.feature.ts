import type { FeatureManifest } from '@app/platform/feature/feature';
import { publishingAuthAggregate } from './domain/publishing-auth.aggregate';
import { publishingAuthAuditSubjects } from './domain/publishing-auth.audit';
import { shareLinkAggregate } from './domain/share-link.aggregate';
import { shareLinkAuditSubjects } from './domain/share-link.audit';
import { siteAggregate } from './domain/site.aggregate';
import { siteAuditSubjects } from './domain/site.audit';
import { DETACH_JOB } from './domain/site-structure';
import { publishingAuthProjection } from './read/publishing-auth.projection';
import { shareLinkProjection } from './read/share-link.projection';
import { siteProjection } from './read/site.projection';
import { siteStructureProjection } from './read/site-structure.projection';

/** Docs sites of an organization: their settings, structure, share links and publishing auth. */
export const sitesFeature: FeatureManifest = {
  name: 'sites',
  module: async () => (await import('./sites.module')).SitesModule,
  aggregates: [siteAggregate, shareLinkAggregate, publishingAuthAggregate],
  projections: [siteProjection, siteStructureProjection, shareLinkProjection, publishingAuthProjection],
  audited: { ...siteAuditSubjects, ...shareLinkAuditSubjects, ...publishingAuthAuditSubjects },
  jobs: [DETACH_JOB],
  fixtures: {
    siteId: async ({ call, ids, label }) =>
      (
        (await call('POST', `/v1/orgs/${ids.organizationId}/sites`, { title: `${label} site` })) as {
          id: string;
        }
      ).id,
    shareLinkId: async ({ call, ids, label }) =>
      (
        (await call('POST', `/v1/orgs/${ids.organizationId}/sites/${ids.siteId}/share-links`, {
          name: `${label} link`,
        })) as { id: string }
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
    // A section group of the site holding its section.
    siteSectionGroupId: async ({ call, ids, label }) =>
      (
        (await call('POST', `/v1/orgs/${ids.organizationId}/sites/${ids.siteId}/section-groups`, {
          title: `${label} group`,
          sections: [ids.siteSectionId],
        })) as { id: string }
      ).id,
  },
};
