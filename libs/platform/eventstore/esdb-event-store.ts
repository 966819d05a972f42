import {
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  BACKWARDS,
  END,
  EventStoreDBClient,
  excludeSystemEvents,
  NO_STREAM,
  type ReadPosition,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import { deliverUntilAccepted, HANDLER_RETRY_DELAY_MS, Waiter } from './batch-delivery';
import {
  appendBytes,
  fromAll,
  reappended,
  recordPosition,
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
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  type Subscription,
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
    try {
      const result = await this.client.appendToStream(stream, data, {
        expectedRevision: toEsdbExpected(expected),
      });
      const nextRevision = Number(result.nextExpectedRevision);
      const position = result.position ? validPosition(result.position.commit) : undefined;
      return { nextRevision, position: position ?? (await this.positionAt(stream, nextRevision)) };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError)
        return this.resolveConflict(stream, events, expected, error);
      throw error;
    }
  }

  async readStream(stream: string, fromRevision = 0): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(stream, { fromRevision: BigInt(fromRevision) })) {
        if (resolved.event) events.push(toRecorded(resolved.event, resolved.commitPosition));
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
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
    const subscription = new EsdbSubscription(this.client, afterPosition, handler, () =>
      this.subscriptions.delete(subscription),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  async headPosition(): Promise<number> {
    let from: ReadPosition = END;
    for (;;) {
      let seen = 0;
      let last: AllStreamResolvedEvent | undefined;
      const read = this.client.readAll({
        direction: BACKWARDS,
        fromPosition: from,
        maxCount: READ_PAGE_SIZE,
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

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
    await this.client.dispose();
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

  private async positionAt(stream: string, revision: number): Promise<number> {
    const [event] = await this.readStream(stream, revision);
    if (!event) throw new Error(`stream ${stream}: revision ${revision} not found after append`);
    return event.position;
  }

  /**
   * ESDB only recognises a retry at the same expected revision; the port promises that re-appending
   * stored ids is always a no-op, so a conflict is checked against the stream before it is reported.
   */
  private async resolveConflict(
    stream: string,
    events: NewEvent[],
    expected: ExpectedRevision,
    error: WrongExpectedVersionError,
  ): Promise<AppendResult> {
    const actual = error.actualVersion === NO_STREAM ? 'no_stream' : Number(error.actualVersion);
    return reappended(stream, events, await this.readStream(stream), expected, actual);
  }
}

/** A catch-up subscription to $all whose events are queued and handed to the handler in ordered batches. */
class EsdbSubscription implements Subscription {
  private readonly buffer: RecordedEvent[] = [];
  private lastQueued: number;
  private source?: AllStreamSubscription;
  private reconnectTimer?: NodeJS.Timeout;
  private stopped = false;
  private readonly newEvents = new Waiter();
  private readonly retryPause = new Waiter();
  private readonly done: Promise<void>;

  constructor(
    private readonly client: EventStoreDBClient,
    afterPosition: number,
    private readonly handler: BatchHandler,
    private readonly onClosed: () => void,
  ) {
    this.lastQueued = afterPosition;
    this.connect();
    this.done = this.pump();
  }

  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    this.newEvents.wake();
    this.retryPause.wake();
    // A connection that is already broken has nothing left to cancel.
    await this.source?.unsubscribe().catch(() => undefined);
    await this.done;
    this.onClosed();
  }

  private connect(): void {
    const source = this.client.subscribeToAll({
      fromPosition: toReadPosition(this.lastQueued),
      filter: excludeSystemEvents(),
    });
    source.on('data', (resolved: AllStreamResolvedEvent) => this.enqueue(resolved));
    source.on('error', (error: Error) => this.reconnect(source, error));
    source.on('end', () => this.reconnect(source, new Error('subscription ended by the server')));
    this.source = source;
  }

  /** Resumes after the last queued event: the queue survives, so nothing is delivered twice or lost. */
  private reconnect(source: AllStreamSubscription, error: Error): void {
    if (this.stopped || source !== this.source) return;
    this.source = undefined;
    process.stderr.write(
      `event store subscription: ${error.message}; reconnecting after ${this.lastQueued}\n`,
    );
    source.unsubscribe().catch(() => undefined);
    this.reconnectTimer = setTimeout(() => {
      if (!this.stopped) this.connect();
    }, HANDLER_RETRY_DELAY_MS);
  }

  private enqueue(resolved: AllStreamResolvedEvent): void {
    let event: RecordedEvent | undefined;
    try {
      event = fromAll(resolved);
    } catch (error) {
      if (this.source) this.reconnect(this.source, error as Error);
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
