import { auditSubjects } from '@app/platform/domain/audit-subject';
import type { InviteLinkEvent } from './invite-link.decider';
import type { MemberInvitesEvent } from './member-invites.decider';

/** What each invite event is about, for the audit log; a join is the organization's `MemberAdded`. */
export const inviteAuditSubjects = auditSubjects<InviteLinkEvent | MemberInvitesEvent>()({
  invite_link: {
    InviteLinkCreated: (d) => ({ type: 'invite', id: d.inviteId, organization: d.organization }),
    InviteLinkUpdated: (d) => ({ type: 'invite', id: d.inviteId, organization: d.organization }),
    InviteLinkDeleted: (d) => ({ type: 'invite', id: d.inviteId, organization: d.organization }),
  },
  member: {
    MemberInvited: (d) => ({
      type: 'member-invite',
      id: d.email,
      organization: d.organization,
      label: d.email,
    }),
  },
});
