import type { FeatureManifest } from '@app/platform/feature/feature';
import { LEAVE_TEAMS_JOB } from './domain/leave-teams';
import { memberDetailsProjection } from './read/member.projection';

/**
 * The members of an organization: their memberships are events of the organization's aggregate (and
 * its `members` view); this feature lists and manages them, records activity (ping) and leaves teams.
 */
export const membersFeature: FeatureManifest = {
  name: 'members',
  module: async () => (await import('./members.module')).MembersModule,
  projections: [memberDetailsProjection],
  jobs: [LEAVE_TEAMS_JOB],
  // The world's administrator (content's fixture names the same user later): a cheap world for the
  // member routes. Removing or demoting them is refused while they are the only admin.
  fixtures: {
    userId: async ({ call, ids }) =>
      (
        (await call('GET', `/v1/orgs/${ids.organizationId}/members?role=admin&order=asc&limit=1`)) as {
          items: { id: string }[];
        }
      ).items[0].id,
  },
};
