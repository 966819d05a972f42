import type { FeatureManifest } from '@app/platform/feature/feature';
import { organizationScope } from '@app/platform/feature/route-scope';
import { organizationAggregate } from './domain/organization.aggregate';
import { organizationAuditSubjects } from './domain/organization.audit';
import { organizationProjection } from './read/organization.projection';

/** Organizations and their memberships: the scope of every other resource. */
export const organizationsFeature: FeatureManifest = {
  name: 'organizations',
  module: async () => (await import('./organizations.module')).OrganizationsModule,
  aggregates: [organizationAggregate],
  projections: [organizationProjection],
  audited: organizationAuditSubjects,
  scopes: { organizationId: organizationScope() },
  // Organizations have no create route: the harness makes the world's.
  fixtures: {
    organizationId: async ({ world }) => world.organizationId,
    emailDomain: async () => 'example.com',
  },
};
