import type { FeatureManifest } from '@app/platform/feature/feature';
import { grantAuditSubjects } from './domain/grant.audit';
import { contentAccessProjection } from './read/content-access.projection';

/** Who may do what on spaces and collections: grants to users and teams, and the resolved access. */
export const permissionsFeature: FeatureManifest = {
  name: 'permissions',
  module: async () => (await import('./permissions.module')).PermissionsModule,
  projections: [contentAccessProjection],
  audited: grantAuditSubjects,
};
