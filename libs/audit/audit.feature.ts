import type { FeatureManifest } from '@app/platform/feature/feature';
import { AuditCatalog } from './domain/audited-events';
import { auditProjection } from './read/audit.projection';

/** The organization audit log: a projection of every other feature's audited events. */
export const auditFeature: FeatureManifest = {
  name: 'audit',
  module: async () => (await import('./audit.module')).AuditModule,
  projections: (features) => [auditProjection(new AuditCatalog(features))],
  fixtures: {
    // The newest entry of the world's organization: the fixtures before this one wrote some.
    auditEventId: async ({ call, ids }) => {
      const page = (await call('GET', `/v1/orgs/${ids.organizationId}/audit-events?limit=1`)) as {
        items: { id: string }[];
      };
      const first = page.items[0]?.id;
      if (!first) throw new Error('No audit event to use as the auditEventId fixture');
      return first;
    },
  },
};
