import { auditSubjects } from '@app/platform/domain/audit-subject';
import type { GrantEvent } from './grant.decider';

/** A grant is about the space or collection it is made on. */
const onTarget = (d: { kind: 'space' | 'collection'; resourceId: string; organization: string }) => ({
  type: d.kind,
  id: d.resourceId,
  organization: d.organization,
});

/** Its action names the grantee's kind (`user.access_granted`); its subject, what is granted. */
export const grantAuditSubjects = auditSubjects<GrantEvent>()({
  user: {
    UserAccessGranted: onTarget,
    UserAccessRevoked: onTarget,
  },
  team: {
    TeamAccessGranted: onTarget,
    TeamAccessRevoked: onTarget,
  },
});
