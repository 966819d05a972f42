import type {
  AppendResult,
  BatchHandler,
  EventStore,
  ExpectedRevision,
  NewEvent,
  RecordedEvent,
  StreamAppend,
  SubscribeOptions,
  Subscription,
} from '../eventstore/event-store.port';
import type { Metrics } from './metrics';

/**
 * Any EventStore, counting the events of every successful append, and keeping the subscriptions opened
 * through it until they are closed, so that readiness can report one that stopped for good.
 */
export class MeteredEventStore implements EventStore {
  private readonly subscriptions = new Set<Subscription>();

  constructor(
    private readonly inner: EventStore,
    private readonly metrics: Metrics,
  ) {}

  async append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const result = await this.inner.append(stream, events, expected);
    this.metrics.eventsAppendedBy(events.length);
    return result;
  }

  async appendInOrder(appends: StreamAppend[]): Promise<AppendResult[]> {
    const results = await this.inner.appendInOrder(appends);
    this.metrics.eventsAppendedBy(appends.reduce((n, append) => n + append.events.length, 0));
    return results;
  }

  readStream(stream: string, fromRevision?: number, maxCount?: number): Promise<RecordedEvent[]> {
    return this.inner.readStream(stream, fromRevision, maxCount);
  }

  readAll(afterPosition: number, maxCount: number): Promise<RecordedEvent[]> {
    return this.inner.readAll(afterPosition, maxCount);
  }

  subscribeAll(afterPosition: number, handler: BatchHandler, options?: SubscribeOptions): Subscription {
    const subscription = this.inner.subscribeAll(afterPosition, handler, options);
    this.subscriptions.add(subscription);
    return {
      failure: () => subscription.failure(),
      close: () => {
        this.subscriptions.delete(subscription);
        return subscription.close();
      },
    };
  }

  /** The failure of a subscription opened here and still open, if one stopped for good. */
  subscriptionFailure(): Error | undefined {
    for (const subscription of this.subscriptions) {
      const failure = subscription.failure();
      if (failure) return failure;
    }
    return undefined;
  }

  headPosition(): Promise<number> {
    return this.inner.headPosition();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
