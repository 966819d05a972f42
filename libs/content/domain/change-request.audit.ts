import { auditSubjects } from '@app/platform/domain/audit-subject';
import type { SpaceContentEvent } from './space-content.decider';

const changeRequest = (d: { changeRequestId: string }) => ({ type: 'change-request', id: d.changeRequestId });

/** What each change request event is about, for the audit log (stored content objects are not audited). */
export const contentAuditSubjects = auditSubjects<SpaceContentEvent>()({
  change_request: {
    ChangeRequestCreated: (d) => ({ ...changeRequest(d), organization: d.organization, label: d.subject }),
    ChangeRequestUpdated: (d) => ({ ...changeRequest(d), label: d.changes.subject }),
    ChangeRequestContentUpdated: changeRequest,
    ChangeRequestRebased: changeRequest,
    ChangeRequestMerged: changeRequest,
    ChangeRequestReviewSubmitted: changeRequest,
    ChangeRequestReviewersRequested: changeRequest,
    ChangeRequestReviewerRemoved: changeRequest,
  },
});
