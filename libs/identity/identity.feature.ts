import type { FeatureManifest } from '@app/platform/feature/feature';
import { userAggregate } from './domain/user.aggregate';
import { identityProjection } from './read/identity.projection';

/** Users and their API tokens; no route of its own yet (the CLI and bootstrap create them). */
export const identityFeature: FeatureManifest = {
  name: 'identity',
  module: async () => (await import('./identity.module')).IdentityModule,
  aggregates: [userAggregate],
  projections: [identityProjection],
};
