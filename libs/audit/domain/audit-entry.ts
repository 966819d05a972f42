import type { EventSource, RecordedEvent } from '@app/platform/eventstore/event-store.port';
import type { Doc } from '@app/platform/readstore/read-store.port';
import { redact } from './redact';

/** GitBook's `AuditEvent.source` is a closed list of entry points. */
export type AuditSource = 'api' | 'script' | 'workflow';
/** The subset of GitBook's `AuditEventActor.type` this product produces. */
export type ActorType = 'user' | 'system';

/** The stable actor id of changes no user made (bootstrap, scheduled purges, scripts run without `--user`). */
export const SYSTEM_ACTOR = 'system';

/**
 * `api` and `script` exist in GitBook's list as they are. `system` does not: it marks work the product
 * does on its own schedule (a purge when retention ends), which GitBook's list calls `workflow`; the
 * actor (`system`) keeps the distinction from a person's change.
 */
export function auditSource(source: EventSource): AuditSource {
  return source === 'system' ? 'workflow' : source;
}

/**
 * One audit event as stored: one per domain event and organization it is recorded in. What only an
 * event's details show (its payload, what caused it) is not copied: `stream` and `revision` find the
 * event in the log, and `auditDetails` reads it from there.
 */
export interface AuditEntry extends Doc {
  organization: string;
  eventId: string;
  occurredAt: string;
  /** Listing order, newest first: see `sortKeyOf`. */
  sortKey: string;
  action: string;
  actorType: ActorType;
  actorId: string;
  actorLabel: string | null;
  source: AuditSource;
  /** Kind of resource: `organization`, `member`, `collection`, `space`, … (a free string in GitBook). */
  targetType: string;
  targetId: string;
  targetLabel: string | null;
  /** Where the event is in the log. */
  stream: string;
  revision: number;
}

/** What an audit event's details add to it, from the event itself (GitBook's `AuditEventDetails`). */
export interface AuditDetails {
  correlationId: string;
  causedByEventId: string | null;
  schemaVersion: number;
  payload: Record<string, unknown>;
}

export interface Labelled<T extends string> {
  type: T;
  id: string;
  label: string | null;
}

/** Keyed by organization first, so a lookup can only ever find an event of the organization asked about. */
export const entryId = (organization: string, eventId: string) => `${organization}:${eventId}`;

/**
 * Occurrence time, then log position: newest first is by time as GitBook lists it, and events of the
 * same millisecond keep the order of the log. Unique, so it is a complete keyset cursor on its own.
 */
export const sortKeyOf = (occurredAt: string, position: number) =>
  `${occurredAt}|${String(position).padStart(16, '0')}`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Event ids, and so audit event ids, are UUIDs. */
export const isEventId = (value: string) => UUID.test(value);

/** What `toISOString` writes; times the product records are already in this form. */
const ISO_UTC_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Times in one canonical form (UTC, milliseconds), so that comparing strings compares instants. */
function canonicalTime(value: string): string {
  if (ISO_UTC_MS.test(value)) return value;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : new Date(ms).toISOString();
}

/** The audit entry of `event`, whose action is `action` (the catalog's), in `organization`. */
export function auditEntry(
  event: RecordedEvent,
  action: string,
  organization: string,
  target: Labelled<string>,
  actor: Labelled<ActorType>,
): AuditEntry {
  const occurredAt = canonicalTime(event.metadata.occurredAt);
  return {
    id: entryId(organization, event.id),
    organization,
    eventId: event.id,
    occurredAt,
    sortKey: sortKeyOf(occurredAt, event.position),
    action,
    actorType: actor.type,
    actorId: actor.id,
    actorLabel: actor.label,
    source: auditSource(event.metadata.actor.source),
    targetType: target.type,
    targetId: target.id,
    targetLabel: target.label,
    stream: event.stream,
    revision: event.revision,
  };
}

/**
 * The details of an audit event, from the event (as upcast). A causation id names the event that caused
 * this one (a purge names its deletion) or is null for a root cause; only an event id (a UUID) is kept.
 * Secrets in the payload are redacted.
 */
export function auditDetails(event: RecordedEvent): AuditDetails {
  const cause = event.metadata.causationId;
  return {
    correlationId: event.metadata.correlationId,
    causedByEventId: cause && isEventId(cause) ? cause : null,
    schemaVersion: event.metadata.schemaVersion,
    payload: redact(event.data ?? {}) as Record<string, unknown>,
  };
}
