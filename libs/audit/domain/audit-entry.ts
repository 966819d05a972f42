import type { EventSource, RecordedEvent } from '@app/platform/eventstore/event-store.port';
import type { Doc } from '@app/platform/readstore/read-store.port';
import { auditAction } from './actions';
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
 * event in the log, and `auditDetails` reads it from there. Its event id is in its own id (`entryId`)
 * and its time in its sort key, so neither is stored again (records projected before hold both);
 * `entryOf` gives the entry with them.
 */
export interface AuditRecord extends Doc {
  organization: string;
  eventId?: string;
  occurredAt?: string;
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

/** One audit event, as listed and presented. */
export interface AuditEntry extends AuditRecord {
  eventId: string;
  occurredAt: string;
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

/** The first instant a sort key counts from (year 0000), so that every time of years 0000–9999 is positive. */
const YEAR_ZERO_MS = Date.parse('0000-01-01T00:00:00.000Z');

/** `n` in base 36, zero-padded to `width` digits: among numbers of one width, text order is number order. */
const base36 = (n: number, width: number) => n.toString(36).padStart(width, '0');

/**
 * The time part of a sort key: milliseconds since year 0000 in 10 base-36 digits (enough for year
 * 9999). An entry's sort key starts with it, so a key made of it alone plus `~` (above every digit)
 * is above every entry of that millisecond.
 */
export function timeKey(time: string): string {
  const ms = Date.parse(time);
  return base36(Number.isNaN(ms) ? 0 : Math.max(ms - YEAR_ZERO_MS, 0), 10);
}

/**
 * Occurrence time, then log position (11 base-36 digits hold any safe integer): newest first is by time
 * as GitBook lists it, and events of the same millisecond keep the order of the log. Unique, so it is a
 * complete keyset cursor on its own; 21 characters, since the key is in the entry and in each of its
 * four indexes.
 */
export const sortKeyOf = (occurredAt: string, position: number) =>
  `${timeKey(occurredAt)}${base36(position, 11)}`;

/** The time a sort key holds, as stored times are written (UTC, milliseconds). */
export const timeOfKey = (sortKey: string) =>
  new Date(Number.parseInt(sortKey.slice(0, 10), 36) + YEAR_ZERO_MS).toISOString();

/** The entry a stored record is. */
export function entryOf(record: AuditRecord): AuditEntry {
  return {
    ...record,
    eventId: record.eventId ?? record.id.slice(record.organization.length + 1),
    occurredAt: record.occurredAt ?? timeOfKey(record.sortKey),
  };
}

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

/** The audit entry of `event` in `organization`, as stored. */
export function auditRecord(
  event: RecordedEvent,
  organization: string,
  target: Labelled<string>,
  actor: Labelled<ActorType>,
): AuditRecord {
  return {
    id: entryId(organization, event.id),
    organization,
    sortKey: sortKeyOf(canonicalTime(event.metadata.occurredAt), event.position),
    action: auditAction(event.type),
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
