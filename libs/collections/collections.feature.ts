import type { FeatureManifest } from '@app/platform/feature/feature';
import { contentScope } from '@app/platform/feature/route-scope';
import { collectionAggregate } from './domain/collection.aggregate';
import { collectionAuditSubjects } from './domain/collection.audit';
import { COLLECTIONS, collectionProjection } from './read/collection.projection';

/** Collections: containers of spaces and collections, nested. */
export const collectionsFeature: FeatureManifest = {
  name: 'collections',
  module: async () => (await import('./collections.module')).CollectionsModule,
  aggregates: [collectionAggregate],
  projections: [collectionProjection],
  audited: collectionAuditSubjects,
  scopes: { collectionId: contentScope('Collection') },
  placed: { kind: 'collection', collection: COLLECTIONS },
  fixtures: {
    collectionId: async ({ call, ids, label }) =>
      (
        (await call('POST', `/v1/orgs/${ids.organizationId}/collections`, { title: `${label} box` })) as {
          id: string;
        }
      ).id,
  },
};
