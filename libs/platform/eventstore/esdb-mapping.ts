import { createHash } from 'node:crypto';
import {
  AccessDeniedError,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  ANY as ESDB_ANY,
  type JSONEventData,
  NO_STREAM,
  type Position,
  type ReadPosition,
  START,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import {
  type AppendResult,
  CheckpointBeyondHeadError,
  type EventMetadata,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  SubscriptionFailedError,
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

/** What the stream's last events say of an append whose ids may already be stored. */
export type RetryVerdict =
  /** Every id is stored, in order: a retry, answered as the first append was. */
  | { kind: 'appended'; result: AppendResult }
  /** No id is stored: a new append. */
  | { kind: 'new' }
  /** Some ids are stored, or all in another order: refused whole. */
  | { kind: 'overlap'; reason: string };

/**
 * Judges an append by the ids it carries against `tail`, the stream's last events as read. ESDB
 * recognises a retry only at the first append's expected revision (or, with `any`, by the ids it still
 * holds in memory), so the adapter asks this before it reports a refusal or appends with `any`.
 */
export function judgeRetry(ids: readonly string[], tail: readonly RecordedEvent[]): RetryVerdict {
  const stored = new Map(tail.map((event) => [event.id, event]));
  const found = ids.map((id) => stored.get(id)).filter((event) => event !== undefined);
  if (found.length === 0) return { kind: 'new' };
  if (found.length < ids.length) {
    return { kind: 'overlap', reason: `${found.length} of ${ids.length} event ids are already stored` };
  }
  if (found.some((event, i) => i > 0 && event.revision <= found[i - 1].revision)) {
    return { kind: 'overlap', reason: 'its event ids are already stored, in another order' };
  }
  const last = found[found.length - 1];
  return { kind: 'appended', result: { nextRevision: last.revision, position: last.position } };
}

/** The answer to an append the verdict settles: the first append's result, or the refusal of an overlap. */
export function settled(stream: string, verdict: Exclude<RetryVerdict, { kind: 'new' }>): AppendResult {
  if (verdict.kind === 'overlap') throw new Error(`stream ${stream}: ${verdict.reason}`);
  return verdict.result;
}

/**
 * The error to report for an append the server refused and that is no retry: a conflict for a wrong
 * expected revision; otherwise (ESDB found the first id where the expected revision puts it, but not the
 * others: its "invalid transaction") an overlap.
 */
export function refusal(stream: string, expected: ExpectedRevision, error: Error): Error {
  if (!(error instanceof WrongExpectedVersionError)) {
    return new Error(`stream ${stream}: some of its event ids are already stored (${error.message})`);
  }
  const actual = error.actualVersion === NO_STREAM ? 'no_stream' : Number(error.actualVersion);
  return new WrongExpectedRevisionError(stream, expected, actual);
}

/** gRPC status codes the client passes on without a class of their own (or with a generic one). */
const GRPC_INVALID_ARGUMENT = 3;
const GRPC_PERMISSION_DENIED = 7;
const GRPC_UNAUTHENTICATED = 16;

/**
 * What an error of a subscription to $all means: the failure to stop on and report, or undefined when
 * subscribing again may mend it (a lost connection, a leader change: NotLeaderError, UnavailableError,
 * a deadline, anything unknown). Permanent: access denied or not authenticated, which the client
 * reports as AccessDeniedError (or a bare status), and a start position the log does not have, which the
 * server refuses as an invalid argument ("Trying to read from an invalid position").
 */
export function permanentFailure(error: unknown, afterPosition: number): SubscriptionFailedError | undefined {
  if (error instanceof SubscriptionFailedError) return error;
  const code = (error as { code?: unknown } | null | undefined)?.code;
  if (
    error instanceof AccessDeniedError ||
    code === GRPC_PERMISSION_DENIED ||
    code === GRPC_UNAUTHENTICATED
  ) {
    return new SubscriptionFailedError(
      'EventStoreDB refused to deliver the log: access denied or not authenticated (see the credentials in EVENTSTORE_URL)',
      { cause: error },
    );
  }
  if (code === GRPC_INVALID_ARGUMENT && /invalid position/i.test((error as Error).message)) {
    return new CheckpointBeyondHeadError(afterPosition, undefined, { cause: error });
  }
  return undefined;
}
