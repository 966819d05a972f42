import type { FeatureManifest } from '@app/platform/feature/feature';
import { teamAggregate } from './domain/team.aggregate';
import { teamAuditSubjects } from './domain/team.audit';
import { teamProjection } from './read/team.projection';

/** Teams of an organization and their members. */
export const teamsFeature: FeatureManifest = {
  name: 'teams',
  module: async () => (await import('./teams.module')).TeamsModule,
  aggregates: [teamAggregate],
  projections: [teamProjection],
  audited: teamAuditSubjects,
  fixtures: {
    teamId: async ({ call, ids, label }) =>
      (
        (await call('PUT', `/v1/orgs/${ids.organizationId}/teams`, { title: `${label} team` })) as {
          id: string;
        }
      ).id,
  },
};
