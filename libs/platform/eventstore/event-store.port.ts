/** Where an event came from, for the audit trail. */
export type EventSource = 'api' | 'script' | 'system';

export interface EventMetadata {
  schemaVersion: number;
  occurredAt: string;
  actor: { userId?: string; tokenId?: string; source: EventSource };
  correlationId: string;
  /** Id of the event (or request) that caused this one; null for a root cause. */
  causationId: string | null;
}

export interface NewEvent<T extends string = string, D = unknown> {
  /** Unique id; appending an event whose id is already stored is a no-op. */
  id: string;
  type: T;
  data: D;
  metadata: EventMetadata;
}

export interface RecordedEvent<T extends string = string, D = unknown> extends NewEvent<T, D> {
  stream: string;
  /** 0-based revision of the event within its stream. */
  revision: number;
  /** Global, strictly increasing position in the log (> 0). */
  position: number;
}

/** `no_stream`: the stream must not exist; `any`: no check; a number: the stream's current revision. */
export type ExpectedRevision = 'any' | 'no_stream' | number;

export interface AppendResult {
  /** Revision of the last event of the stream after the append. */
  nextRevision: number;
  /** Global position of the last event appended. */
  position: number;
}

export interface Subscription {
  close(): Promise<void>;
}

/**
 * `through`: the position the subscription has read the log through, at or past the batch's last event;
 * past it when events of other types were left out (`SubscribeOptions.types`), in which case the batch
 * may be empty. Adapters that leave nothing out may omit it.
 */
export type BatchHandler = (events: RecordedEvent[], through?: number) => Promise<void>;

export interface SubscribeOptions {
  /**
   * The event types the subscriber acts on. An adapter may then leave the others out (the embedded log
   * does, so a subscriber interested in few events does not read every one); handlers still ignore
   * types they do not handle, since others may deliver everything.
   */
  types?: readonly string[];
}

export interface EventStore {
  append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /** Events of one stream in revision order, from `fromRevision` (inclusive). Empty when it does not exist. */
  readStream(stream: string, fromRevision?: number): Promise<RecordedEvent[]>;
  /** Up to `maxCount` events of the whole log after `afterPosition` (exclusive), in global order. */
  readAll(afterPosition: number, maxCount: number): Promise<RecordedEvent[]>;
  /** Delivers every event after `afterPosition`, then new ones as they are appended, in batches, in order. */
  subscribeAll(afterPosition: number, handler: BatchHandler, options?: SubscribeOptions): Subscription;
  /** Position of the last event in the log, 0 when empty. */
  headPosition(): Promise<number>;
  close(): Promise<void>;
}

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`stream ${stream}: expected revision ${expected}, actual ${actual}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

/**
 * The most an append may weigh, its events' data and metadata as JSON: EventStoreDB's default limit on
 * one append (`MaxAppendSize`), held on every adapter so that what the embedded log accepts, a cluster
 * accepts too. The HTTP body limit is the same size by default.
 */
export const MAX_APPEND_BYTES = 1_048_576;

/** An append larger than `MAX_APPEND_BYTES`; nothing of it is written. Answered as HTTP 413. */
export class AppendTooLargeError extends Error {
  readonly statusCode = 413;
  constructor(readonly bytes: number) {
    super(`The change is too large to store: ${bytes} bytes, at most ${MAX_APPEND_BYTES}`);
    this.name = 'AppendTooLargeError';
  }
}

/**
 * What every adapter checks before an append reaches storage: at least one event, a well-formed expected
 * revision, no event id twice, at most `MAX_APPEND_BYTES` (`bytes`: the events' data and metadata as JSON).
 */
export function assertAppendable(
  events: readonly { id: string }[],
  expected: ExpectedRevision,
  bytes: number,
): void {
  if (events.length === 0) throw new Error('append needs at least one event');
  if (typeof expected === 'number' && !(Number.isInteger(expected) && expected >= 0)) {
    throw new Error(`invalid expected revision ${expected}`);
  }
  if (new Set(events.map((event) => event.id)).size !== events.length) {
    throw new Error('append contains the same event id twice');
  }
  if (bytes > MAX_APPEND_BYTES) throw new AppendTooLargeError(bytes);
}

export const EVENT_STORE = Symbol('EVENT_STORE');
