import type { FeatureManifest } from '@app/platform/feature/feature';
import { inviteAuditSubjects } from './domain/invite.audit';
import { inviteLinkAggregate } from './domain/invite-link.aggregate';
import { memberInvitesAggregate } from './domain/member-invites.aggregate';
import { ADMIT_INVITED_ACCOUNT_JOB, ADMIT_INVITED_JOB } from './domain/member-invites.decider';
import { inviteProjection } from './read/invite.projection';

/** Invite links and email invites to an organization, and joining with a link. */
export const invitesFeature: FeatureManifest = {
  name: 'invites',
  module: async () => (await import('./invites.module')).InvitesModule,
  aggregates: [inviteLinkAggregate, memberInvitesAggregate],
  projections: [inviteProjection],
  audited: inviteAuditSubjects,
  jobs: [ADMIT_INVITED_JOB, ADMIT_INVITED_ACCOUNT_JOB],
  fixtures: {
    inviteId: async ({ call, ids }) =>
      (
        (await call('POST', `/v1/orgs/${ids.organizationId}/link-invites`, { role: 'read' })) as {
          id: string;
        }
      ).id,
  },
};
