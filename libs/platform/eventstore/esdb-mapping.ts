import { createHash } from 'node:crypto';
import {
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  ANY as ESDB_ANY,
  type JSONEventData,
  NO_STREAM,
  type Position,
  type ReadPosition,
  START,
} from '@eventstore/db-client';
import {
  type AppendResult,
  type EventMetadata,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from './event-store.port';

/*
 * The pure half of the EventStoreDB adapter: how our events, revisions, positions and ids map to the
 * server's, and what a refused append means. Kept apart so that it is tested on every run, with or
 * without a server.
 */

/** What this adapter stores as ESDB event metadata: ours, plus the id as given by the caller. */
export interface Envelope {
  originalId: string;
  metadata: EventMetadata;
  /** Read by ESDB's own projections ($by_correlation_id). */
  $correlationId: string;
  $causationId?: string;
}

/** The fields shared by events read from a stream and from $all. */
export interface EsdbRecord {
  streamId: string;
  id: string;
  revision: bigint;
  type: string;
  data: unknown;
  metadata: unknown;
  position?: Position;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Namespace of the name-based UUIDs derived from ids that are not UUIDs. */
const ID_NAMESPACE = Buffer.from('6f1c2a4e9b3d4c8f8a1e5d7b2c9f0a13', 'hex');
/** ESDB reports "no position" as the largest unsigned 64-bit value. */
export const NO_POSITION = 2n ** 64n - 1n;

export function toEsdbExpected(expected: ExpectedRevision): AppendExpectedRevision {
  if (expected === 'any') return ESDB_ANY;
  if (expected === 'no_stream') return NO_STREAM;
  if (!Number.isInteger(expected) || expected < 0) throw new Error(`invalid expected revision ${expected}`);
  return BigInt(expected);
}

/** The bytes an append weighs as the server counts them: its events' data and metadata as JSON. */
export function appendBytes(events: readonly JSONEventData[]): number {
  let bytes = 0;
  for (const event of events)
    bytes +=
      Buffer.byteLength(JSON.stringify(event.data)) + Buffer.byteLength(JSON.stringify(event.metadata));
  return bytes;
}

export function toEventData(event: NewEvent): JSONEventData {
  const envelope: Envelope = {
    originalId: event.id,
    metadata: event.metadata,
    $correlationId: event.metadata.correlationId,
    ...(event.metadata.causationId ? { $causationId: event.metadata.causationId } : {}),
  };
  return {
    id: toEsdbId(event.id),
    contentType: 'application/json',
    type: event.type,
    data: (event.data ?? null) as JSONEventData['data'],
    metadata: envelope as unknown as JSONEventData['metadata'],
  };
}

/** ESDB ids must be UUIDs: other ids are mapped to a name-based (v5) UUID, stable across retries. */
export function toEsdbId(id: string): string {
  if (UUID.test(id)) return id.toLowerCase();
  const hash = createHash('sha1').update(ID_NAMESPACE).update(id, 'utf8').digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Our event from a $all entry; undefined for system events and unresolved links. */
export function fromAll(resolved: AllStreamResolvedEvent): RecordedEvent | undefined {
  const record = resolved.event;
  if (!record || record.type.startsWith('$')) return undefined;
  return toRecorded(record, resolved.commitPosition);
}

export function toRecorded(record: EsdbRecord, commitPosition: bigint | undefined): RecordedEvent {
  const position = validPosition(record.position?.commit ?? commitPosition);
  if (position === undefined) {
    throw new Error(`event ${record.id} in ${record.streamId} has no log position (server older than 22.6?)`);
  }
  const envelope = asEnvelope(record.metadata);
  return {
    id: envelope?.originalId ?? record.id,
    stream: record.streamId,
    revision: Number(record.revision),
    position,
    type: record.type,
    data: record.data,
    metadata: envelope?.metadata ?? (record.metadata as EventMetadata),
  };
}

export function asEnvelope(metadata: unknown): Envelope | undefined {
  const candidate = metadata as Partial<Envelope> | undefined;
  return typeof candidate?.originalId === 'string' && candidate.metadata
    ? (candidate as Envelope)
    : undefined;
}

export function recordPosition(resolved: AllStreamResolvedEvent): number | undefined {
  return validPosition(resolved.event?.position.commit ?? resolved.commitPosition);
}

export function validPosition(commit: bigint | undefined): number | undefined {
  return commit === undefined || commit < 0n || commit === NO_POSITION ? undefined : Number(commit);
}

/** Since events are single-record commits, an event's prepare position equals its commit position. */
export function toReadPosition(position: number): ReadPosition {
  if (position <= 0) return START;
  const at = BigInt(position);
  return { commit: at, prepare: at };
}

/**
 * What an append the server refused for its expected revision means: when every one of its event ids
 * is already in the stream, it was applied before (a retry) and answers as it did then; when some are,
 * it is refused whole; otherwise it is a real conflict.
 */
export function reappended(
  stream: string,
  events: readonly NewEvent[],
  storedEvents: readonly RecordedEvent[],
  expected: ExpectedRevision,
  actual: number | 'no_stream',
): AppendResult {
  const stored = new Map(storedEvents.map((event) => [event.id, event]));
  const found = events.map((event) => stored.get(event.id)).filter((event) => event !== undefined);
  if (found.length === events.length) {
    const last = found.reduce((a, b) => (b.position > a.position ? b : a));
    return { nextRevision: last.revision, position: last.position };
  }
  if (found.length > 0) {
    throw new Error(`stream ${stream}: ${found.length} of ${events.length} event ids are already stored`);
  }
  throw new WrongExpectedRevisionError(stream, expected, actual);
}
