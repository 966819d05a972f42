import type { FeatureManifest } from '@app/platform/feature/feature';

/** Links and backlinks of a revision's content, computed from its documents when asked. */
export const linksFeature: FeatureManifest = {
  name: 'links',
  module: async () => (await import('./links.module')).LinksModule,
};
