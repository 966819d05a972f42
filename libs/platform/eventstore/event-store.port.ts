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
  /** Unique (`newEventId`); a retried append is recognised by its ids, as far as `EventStore.append` says. */
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

/** One stream's share of `EventStore.appendInOrder`. */
export interface StreamAppend {
  stream: string;
  events: NewEvent[];
  expected: ExpectedRevision;
}

export interface AppendResult {
  /** Revision of the last event of the stream after the append. */
  nextRevision: number;
  /** Global position of the last event appended. */
  position: number;
}

export interface Subscription {
  close(): Promise<void>;
  /**
   * The error that stopped this subscription for good (`SubscriptionFailedError`); undefined while it runs.
   * Anything else (a lost connection, a failing handler) is retried and never shows here.
   */
  failure(): Error | undefined;
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
  /**
   * Appends `events` to `stream` if its revision is `expected`, all or nothing.
   *
   * Retrying is safe: when every id of an append is already stored in `stream`, in that order, nothing is
   * written and the append answers as the first one did (the revision and position of its last event);
   * when only some are, it is refused whole with an `Error` that is not a `WrongExpectedRevisionError`.
   * Every adapter recognises a retry made with the first append's expected revision (a number or
   * `no_stream`) however much was appended since, and one made with `any` or with another expected
   * revision that conflicts as long as at most `RETRY_WINDOW` events were appended to the stream after
   * the first append. Not promised by every adapter (EventStoreDB may store the events again or report
   * a conflict; the embedded log refuses or recognises them): an id stored in another stream; a retry
   * beyond that window; a retry whose expected revision is the stream's current one, which a caller can
   * only have read after the first append had succeeded.
   */
  append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /**
   * Appends to several streams, each as `append` would, in order, and answers their results in order.
   * All or nothing where the store can (the embedded log: one transaction); elsewhere (EventStoreDB has
   * no transaction across streams) one after the other, each only once the one before succeeded, so an
   * append that fails leaves those after it unwritten and those before it written. Either way an event
   * never lands without the events appended before it: what a change names, appended first, is there.
   */
  appendInOrder(appends: StreamAppend[]): Promise<AppendResult[]>;
  /**
   * Events of one stream in revision order, from `fromRevision` (inclusive), at most `maxCount` of them
   * (absent: to its end). Empty when it does not exist.
   */
  readStream(stream: string, fromRevision?: number, maxCount?: number): Promise<RecordedEvent[]>;
  /** Up to `maxCount` events of the whole log after `afterPosition` (exclusive), in global order. */
  readAll(afterPosition: number, maxCount: number): Promise<RecordedEvent[]>;
  /**
   * Delivers every event after `afterPosition`, then new ones as they are appended, in batches, in order.
   * A position beyond the head of the log (a checkpoint kept for another log) stops the subscription
   * with a `CheckpointBeyondHeadError` (`Subscription.failure`).
   */
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
 * How many events appended to a stream after an append a retry of it with `any`, or with a conflicting
 * expected revision other than the first one, may follow and still be recognised (see `EventStore.append`).
 */
export const RETRY_WINDOW = 64;

/**
 * A subscription stopped for good: what it met will not mend by retrying (access refused, a checkpoint
 * the log does not have). Its message names no host, so that `/ready` may show it.
 */
export class SubscriptionFailedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SubscriptionFailedError';
  }
}

/**
 * A subscription asked to start after a position this log does not have: its checkpoint was kept for
 * another log (views built from another log, or a log restored from an older backup). Following this log
 * from there would skip or misapply events, so it stops.
 */
export class CheckpointBeyondHeadError extends SubscriptionFailedError {
  constructor(
    readonly afterPosition: number,
    /** The log's head when known; undefined when the server refused the position itself. */
    readonly head?: number,
    options?: { cause?: unknown },
  ) {
    super(
      head === undefined
        ? `the log has no event at position ${afterPosition}, where a checkpoint says to go on: it was kept for another log`
        : `a checkpoint says to go on after position ${afterPosition}, but the log ends at ${head}: it was kept for another log`,
      options,
    );
    this.name = 'CheckpointBeyondHeadError';
  }
}

/** The failure of a subscription asked to start after `afterPosition` on a log whose head is `head`. */
export function checkpointBeyondHead(
  afterPosition: number,
  head: number,
): CheckpointBeyondHeadError | undefined {
  return afterPosition > head ? new CheckpointBeyondHeadError(afterPosition, head) : undefined;
}

/**
 * The most an append may weigh, its events' data and metadata as JSON: EventStoreDB's default limit on
 * one append (`MaxAppendSize`), held on every adapter so that what the embedded log accepts, a cluster
 * accepts too. A change's content objects take as many appends as they need (`Prerequisite`), each under it.
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
