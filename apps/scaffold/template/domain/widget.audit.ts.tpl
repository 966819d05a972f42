import { auditSubjects } from '@app/platform/domain/audit-subject';
import type { WidgetEvent } from './widget.decider';

/** What each __label__ event is about, for the audit log (`__name_snake__.created`, …). */
export const widgetAuditSubjects = auditSubjects<WidgetEvent>()({
  __name_snake__: {
    WidgetCreated: (d) => ({ type: '__name__', id: d.widgetId, organization: d.organization, label: d.title }),
    WidgetUpdated: (d) => ({ type: '__name__', id: d.widgetId, organization: d.organization, label: d.changes.title }),
    WidgetDeleted: (d) => ({ type: '__name__', id: d.widgetId, organization: d.organization }),
  },
});
