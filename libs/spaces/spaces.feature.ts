import type { FeatureManifest } from '@app/platform/feature/feature';
import { contentScope } from '@app/platform/feature/route-scope';
import { spaceAggregate } from './domain/space.aggregate';
import { spaceAuditSubjects } from './domain/space.audit';
import { PURGE_JOB } from './domain/space-purge';
import { SPACES, spaceProjection } from './read/space.projection';

/** Spaces; the scheduled purge of deleted ones. */
export const spacesFeature: FeatureManifest = {
  name: 'spaces',
  module: async () => (await import('./spaces.module')).SpacesModule,
  aggregates: [spaceAggregate],
  projections: [spaceProjection],
  audited: spaceAuditSubjects,
  jobs: [PURGE_JOB],
  scopes: { spaceId: contentScope('Space') },
  placed: { kind: 'space', collection: SPACES, live: { deleted: false } },
  fixtures: {
    spaceId: async ({ call, ids, label }) =>
      (
        (await call('POST', `/v1/orgs/${ids.organizationId}/spaces`, { title: `${label} space` })) as {
          id: string;
        }
      ).id,
  },
};
