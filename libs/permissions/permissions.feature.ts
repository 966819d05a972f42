import type { FeatureManifest } from '@app/platform/feature/feature';
import { grantAggregate } from './domain/grant.aggregate';
import { grantAuditSubjects } from './domain/grant.audit';
import { contentAccessProjection } from './read/content-access.projection';

/** Who may do what on spaces and collections: grants to users and teams, and the resolved access. */
export const permissionsFeature: FeatureManifest = {
  name: 'permissions',
  module: async () => (await import('./permissions.module')).PermissionsModule,
  aggregates: [grantAggregate],
  projections: [contentAccessProjection],
  audited: grantAuditSubjects,
};
