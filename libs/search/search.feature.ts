import type { FeatureManifest } from '@app/platform/feature/feature';
import { searchProjection } from './read/search.projection';

/** Full-text search of a space's current revision, and of an organization's spaces. */
export const searchFeature: FeatureManifest = {
  name: 'search',
  module: async () => (await import('./search.module')).SearchModule,
  projections: [searchProjection],
};
