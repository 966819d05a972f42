import type { FeatureManifest } from '@app/platform/feature/feature';
import { contentFixtures } from './content.fixtures';
import { contentAuditSubjects } from './domain/change-request.audit';
import { spaceContentAggregate } from './domain/space-content.aggregate';
import { changeRequestProjection } from './read/change-request.projection';
import { contentObjectProjection } from './read/content-object.projection';
import { reviewProjection } from './read/review.projection';
import { revisionProjection } from './read/revision.projection';

/** Versioned content: change requests, revisions, and the content objects they are made of. */
export const contentFeature: FeatureManifest = {
  name: 'content',
  module: async () => (await import('./content.module')).ContentModule,
  aggregates: [spaceContentAggregate],
  projections: [contentObjectProjection, revisionProjection, changeRequestProjection, reviewProjection],
  audited: contentAuditSubjects,
  scopes: {},
  fixtures: contentFixtures,
};
