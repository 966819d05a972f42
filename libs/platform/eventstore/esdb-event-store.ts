import {
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  BACKWARDS,
  END,
  EventStoreDBClient,
  excludeSystemEvents,
  InvalidTransactionError,
  type JSONEventData,
  type ReadPosition,
  type ReadStreamOptions,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import { deliverUntilAccepted, HANDLER_RETRY_DELAY_MS, Waiter } from './batch-delivery';
import {
  appendBytes,
  fromAll,
  judgeRetry,
  permanentFailure,
  type RetryVerdict,
  recordPosition,
  refusal,
  settled,
  toEsdbExpected,
  toEventData,
  toReadPosition,
  toRecorded,
  validPosition,
} from './esdb-mapping';
import {
  type AppendResult,
  assertAppendable,
  type BatchHandler,
  checkpointBeyondHead,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  RETRY_WINDOW,
  type RecordedEvent,
  type StreamAppend,
  type Subscription,
  type SubscriptionFailedError,
} from './event-store.port';

export interface EventStoreDbEventStoreOptions {
  /** e.g. `esdb://localhost:2113?tls=false` */
  url: string;
}

const READ_PAGE_SIZE = 512;
const MIN_READ_PAGE_SIZE = 64;
const SUBSCRIPTION_BATCH_SIZE = 1000;
/** Buffered events at which the subscription stops reading from the server until the handler catches up. */
const SUBSCRIPTION_HIGH_WATER = 4 * SUBSCRIPTION_BATCH_SIZE;

/**
 * Event store on EventStoreDB (KurrentDB) over gRPC. Needs a server >= 22.6, which reports the
 * log position of events read from a stream. `position` is the event's commit position in $all.
 */
export class EventStoreDbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;
  private readonly subscriptions = new Set<EsdbSubscription>();
  private closed = false;

  constructor(options: EventStoreDbEventStoreOptions) {
    this.client = EventStoreDBClient.connectionString(options.url);
  }

  async append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const data = events.map(toEventData);
    assertAppendable(events, expected, appendBytes(data));
    // ESDB recognises a retry with `any` only by the ids it still holds in memory (none after a restart).
    if (expected === 'any') {
      const verdict = await this.judge(stream, events);
      if (verdict.kind !== 'new') return settled(stream, verdict);
    }
    try {
      return await this.write(stream, data, expected);
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError || error instanceof InvalidTransactionError))
        throw error;
      // ESDB recognises a retry only at the first append's expected revision: a refusal may still be one.
      const verdict = await this.judge(stream, events);
      if (verdict.kind !== 'new') return settled(stream, verdict);
      throw refusal(stream, expected, error);
    }
  }

  /** One append after the other: EventStoreDB has no transaction across streams. */
  async appendInOrder(appends: StreamAppend[]): Promise<AppendResult[]> {
    const results: AppendResult[] = [];
    for (const { stream, events, expected } of appends)
      results.push(await this.append(stream, events, expected));
    return results;
  }

  async readStream(stream: string, fromRevision = 0, maxCount?: number): Promise<RecordedEvent[]> {
    return this.read(stream, {
      fromRevision: BigInt(fromRevision),
      ...(maxCount === undefined ? {} : { maxCount: BigInt(maxCount) }),
    });
  }

  async readAll(afterPosition: number, maxCount: number): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    let cursor = afterPosition;
    while (events.length < maxCount) {
      // A read from a position includes the event at it, hence one more than still wanted; the floor
      // keeps pages useful when system events are interleaved.
      const page = await this.readAllPage(cursor, Math.max(maxCount - events.length + 1, MIN_READ_PAGE_SIZE));
      for (const resolved of page.events) {
        const event = fromAll(resolved);
        if (event && event.position > cursor && events.length < maxCount) events.push(event);
      }
      if (page.exhausted || page.lastPosition <= cursor) break;
      cursor = page.lastPosition;
    }
    return events;
  }

  subscribeAll(afterPosition: number, handler: BatchHandler): Subscription {
    const subscription = new EsdbSubscription({
      client: this.client,
      head: (onLeader) => this.head(onLeader),
      afterPosition,
      handler,
      onClosed: () => this.subscriptions.delete(subscription),
    });
    this.subscriptions.add(subscription);
    return subscription;
  }

  headPosition(): Promise<number> {
    return this.head(false);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
    await this.client.dispose();
  }

  /** The head, read where the connection reads, or on the leader, which no follower can be ahead of. */
  private async head(onLeader: boolean): Promise<number> {
    let from: ReadPosition = END;
    for (;;) {
      let seen = 0;
      let last: AllStreamResolvedEvent | undefined;
      const read = this.client.readAll({
        direction: BACKWARDS,
        fromPosition: from,
        maxCount: READ_PAGE_SIZE,
        requiresLeader: onLeader,
      });
      for await (const resolved of read) {
        const event = fromAll(resolved);
        if (event) {
          await read.cancel();
          return event.position;
        }
        seen += 1;
        last = resolved;
      }
      // Only system events so far: carry on backwards from the oldest one seen.
      const lastPosition = last && recordPosition(last);
      if (seen < READ_PAGE_SIZE || lastPosition === undefined) return 0;
      from = toReadPosition(lastPosition);
    }
  }

  /** Events of one page of $all from `afterPosition` (inclusive), system events included. */
  private async readAllPage(afterPosition: number, maxCount: number) {
    const events: AllStreamResolvedEvent[] = [];
    for await (const resolved of this.client.readAll({
      fromPosition: toReadPosition(afterPosition),
      maxCount,
    })) {
      events.push(resolved);
    }
    const last = events.length > 0 ? recordPosition(events[events.length - 1]) : undefined;
    return { events, exhausted: events.length < maxCount, lastPosition: last ?? afterPosition };
  }

  private async write(
    stream: string,
    data: JSONEventData[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    const result = await this.client.appendToStream(stream, data, {
      expectedRevision: toEsdbExpected(expected),
    });
    const nextRevision = Number(result.nextExpectedRevision);
    // A retry ESDB recognised itself comes back without a position.
    const position = result.position ? validPosition(result.position.commit) : undefined;
    return { nextRevision, position: position ?? (await this.positionAt(stream, nextRevision)) };
  }

  private async positionAt(stream: string, revision: number): Promise<number> {
    const [event] = await this.read(stream, { fromRevision: BigInt(revision), maxCount: 1 });
    if (!event) throw new Error(`stream ${stream}: revision ${revision} not found after append`);
    return event.position;
  }

  /** Judges an append against the stream's last events: as many as it carries and `RETRY_WINDOW` more. */
  private async judge(stream: string, events: NewEvent[]): Promise<RetryVerdict> {
    const tail = await this.read(stream, {
      direction: BACKWARDS,
      fromRevision: END,
      maxCount: events.length + RETRY_WINDOW,
    });
    return judgeRetry(
      events.map((event) => event.id),
      tail,
    );
  }

  /** The events of one stream a read yields, in the order read; none when the stream does not exist. */
  private async read(stream: string, options: ReadStreamOptions): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(stream, options)) {
        if (resolved.event) events.push(toRecorded(resolved.event, resolved.commitPosition));
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }
}

interface EsdbSubscriptionOptions {
  client: EventStoreDBClient;
  /** The head of the log; `onLeader` reads it on the leader. */
  head(onLeader: boolean): Promise<number>;
  afterPosition: number;
  handler: BatchHandler;
  onClosed(): void;
}

/**
 * A catch-up subscription to $all whose events are queued and handed to the handler in ordered batches.
 * It subscribes again after any error but those `permanentFailure` names: then it stops and reports it.
 */
class EsdbSubscription implements Subscription {
  private readonly client: EventStoreDBClient;
  private readonly handler: BatchHandler;
  private readonly buffer: RecordedEvent[] = [];
  private lastQueued: number;
  private source?: AllStreamSubscription;
  private reconnectTimer?: NodeJS.Timeout;
  private stopped = false;
  private failed?: SubscriptionFailedError;
  private readonly newEvents = new Waiter();
  private readonly retryPause = new Waiter();
  private readonly done: Promise<void>;

  constructor(private readonly options: EsdbSubscriptionOptions) {
    this.client = options.client;
    this.handler = options.handler;
    this.lastQueued = options.afterPosition;
    void this.connect();
    this.done = this.pump();
  }

  failure(): Error | undefined {
    return this.failed;
  }

  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    this.newEvents.wake();
    this.retryPause.wake();
    // A connection that is already broken has nothing left to cancel.
    await this.source?.unsubscribe().catch(() => undefined);
    await this.done;
    this.options.onClosed();
  }

  /** Subscribes after the last queued event, once the log is known to have it. */
  private async connect(): Promise<void> {
    const from = this.lastQueued;
    try {
      const beyond = await this.beyondHead(from);
      if (beyond) return this.fail(beyond);
    } catch (error) {
      return this.broken(error as Error, undefined);
    }
    if (this.stopped) return;
    const source = this.client.subscribeToAll({
      fromPosition: toReadPosition(from),
      filter: excludeSystemEvents(),
    });
    source.on('data', (resolved: AllStreamResolvedEvent) => this.enqueue(resolved));
    source.on('error', (error: Error) => this.broken(error, source));
    source.on('end', () => this.broken(new Error('subscription ended by the server'), source));
    this.source = source;
  }

  /**
   * Whether `from` is past the head, confirmed on the leader: a follower may lag behind a checkpoint
   * taken from the leader's log, and a false alarm would stop this subscription for good.
   */
  private async beyondHead(from: number): Promise<SubscriptionFailedError | undefined> {
    if (!checkpointBeyondHead(from, await this.options.head(false))) return undefined;
    return checkpointBeyondHead(from, await this.options.head(true));
  }

  /**
   * Resumes after the last queued event (the queue survives, so nothing is delivered twice or lost),
   * unless the error is permanent. `source` is the connection that broke, undefined before there is one.
   */
  private broken(error: Error, source: AllStreamSubscription | undefined): void {
    if (this.stopped || this.failed || source !== this.source) return;
    this.source = undefined;
    source?.unsubscribe().catch(() => undefined);
    const permanent = permanentFailure(error, this.lastQueued);
    if (permanent) {
      this.fail(permanent);
      return;
    }
    process.stderr.write(
      `event store subscription: ${error.message}; reconnecting after ${this.lastQueued}\n`,
    );
    this.reconnectTimer = setTimeout(() => {
      if (!this.stopped) void this.connect();
    }, HANDLER_RETRY_DELAY_MS);
  }

  /** Stops reading the log for good; events already queued are still delivered. */
  private fail(failure: SubscriptionFailedError): void {
    this.failed = failure;
    process.stderr.write(`event store subscription stopped: ${failure.message}\n`);
  }

  private enqueue(resolved: AllStreamResolvedEvent): void {
    let event: RecordedEvent | undefined;
    try {
      event = fromAll(resolved);
    } catch (error) {
      if (this.source) this.broken(error as Error, this.source);
      return;
    }
    // A position is also where a resumed subscription restarts, so it may be delivered again.
    if (!event || event.position <= this.lastQueued) return;
    this.buffer.push(event);
    this.lastQueued = event.position;
    if (this.buffer.length >= SUBSCRIPTION_HIGH_WATER) this.source?.pause();
    this.newEvents.wake();
  }

  private async pump(): Promise<void> {
    while (!this.stopped) {
      if (this.buffer.length === 0) {
        await this.newEvents.wait();
        continue;
      }
      const batch = this.buffer.slice(0, SUBSCRIPTION_BATCH_SIZE);
      if (!(await deliverUntilAccepted(batch, this.handler, () => this.stopped, this.retryPause))) return;
      this.buffer.splice(0, batch.length);
      if (this.buffer.length < SUBSCRIPTION_HIGH_WATER) this.source?.resume();
    }
  }
}
