import { auditSubjects } from '@app/platform/domain/audit-subject';
import type { GrantEvent } from './grant.decider';

/** A grant is about the space or collection it is made on. */
const onTarget = (d: { kind: 'space' | 'collection'; resourceId: string; organization: string }) => ({
  type: d.kind,
  id: d.resourceId,
  organization: d.organization,
});

export const grantAuditSubjects = auditSubjects<GrantEvent>({
  UserAccessGranted: onTarget,
  UserAccessRevoked: onTarget,
  TeamAccessGranted: onTarget,
  TeamAccessRevoked: onTarget,
});
