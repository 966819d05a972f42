import { auditSubjects, type Subject } from '@app/platform/domain/audit-subject';
import type { ShareLinkEvent } from './share-link.decider';

const shareLink = (d: { shareLinkId: string; organization: string }): Subject => ({
  type: 'share_link',
  id: d.shareLinkId,
  organization: d.organization,
});

/** `share_link.created`, `share_link.renamed`, `share_link.deactivated`, …; the audit payload redacts `keyHash`. */
export const shareLinkAuditSubjects = auditSubjects<ShareLinkEvent>()({
  share_link: {
    ShareLinkCreated: (d) => ({ ...shareLink(d), label: d.name }),
    ShareLinkRenamed: (d) => ({ ...shareLink(d), label: d.name }),
    ShareLinkActivated: shareLink,
    ShareLinkDeactivated: shareLink,
    ShareLinkDeleted: shareLink,
  },
});
