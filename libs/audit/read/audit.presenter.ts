import { Urls } from '@app/platform/http/urls';
import { Injectable } from '@nestjs/common';
import type { AuditDetails, AuditEntry, Labelled } from '../domain/audit-entry';

/** A label is optional in GitBook's actor and target; an unknown one is left out rather than empty. */
const labelled = <T extends string>({ type, id, label }: Labelled<T>) => ({
  type,
  id,
  ...(label ? { label } : {}),
});

/** GitBook's `AuditEvent`, `AuditEventDetails` and `AuditEventAction` shapes. */
@Injectable()
export class AuditPresenter {
  constructor(private readonly urls: Urls) {}

  event(entry: AuditEntry) {
    return {
      object: 'audit-event' as const,
      id: entry.eventId,
      occurredAt: entry.occurredAt,
      action: entry.action,
      actor: labelled({ type: entry.actorType, id: entry.actorId, label: entry.actorLabel }),
      source: entry.source,
      target: labelled({ type: entry.targetType, id: entry.targetId, label: entry.targetLabel }),
      urls: { location: this.urls.api(`/orgs/${entry.organization}/audit-events/${entry.eventId}`) },
    };
  }

  /** The event with what caused it and its payload (the event's data, secrets redacted). */
  details(entry: AuditEntry, details: AuditDetails) {
    return {
      ...this.event(entry),
      correlationId: details.correlationId,
      ...(details.causedByEventId ? { causedByEventId: details.causedByEventId } : {}),
      schemaVersion: details.schemaVersion,
      payload: details.payload,
    };
  }

  action(action: { id: string; label: string }) {
    return { object: 'audit-event-action' as const, ...action };
  }
}
