import { auditSubjects } from '@app/platform/domain/audit-subject';
import type { WidgetEvent } from './widget.decider';

/** What each widget event is about, for the audit log. */
export const widgetAuditSubjects = auditSubjects<WidgetEvent>({
  WidgetCreated: (d) => ({ type: 'widget', id: d.widgetId, organization: d.organization, label: d.title }),
  WidgetUpdated: (d) => ({ type: 'widget', id: d.widgetId, label: d.changes.title }),
  WidgetDeleted: (d) => ({ type: 'widget', id: d.widgetId, organization: d.organization }),
});
