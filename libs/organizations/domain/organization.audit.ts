import { auditSubjects } from '@app/platform/domain/audit-subject';
import type { OrganizationEvent } from './organization.decider';

/** What each organization event is about, for the audit log. */
export const organizationAuditSubjects = auditSubjects<OrganizationEvent>()({
  organization: {
    OrganizationCreated: (d) => ({
      type: 'organization',
      id: d.organizationId,
      organization: d.organizationId,
      label: d.title,
    }),
    OrganizationUpdated: (d) => ({
      type: 'organization',
      id: d.organizationId,
      organization: d.organizationId,
      label: d.changes.title,
    }),
  },
  member: {
    MemberAdded: (d) => ({ type: 'member', id: d.userId, organization: d.organizationId }),
    MemberRoleChanged: (d) => ({ type: 'member', id: d.userId, organization: d.organizationId }),
    MemberRemoved: (d) => ({ type: 'member', id: d.userId, organization: d.organizationId }),
    MemberSetAsSso: (d) => ({ type: 'member', id: d.userId, organization: d.organizationId }),
    MemberSeen: (d) => ({ type: 'member', id: d.userId, organization: d.organizationId }),
  },
});
