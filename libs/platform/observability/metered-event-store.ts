import type {
  AppendResult,
  BatchHandler,
  EventStore,
  ExpectedRevision,
  NewEvent,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
} from '../eventstore/event-store.port';
import type { Metrics } from './metrics';

/** Any EventStore, counting the events of every successful append. */
export class MeteredEventStore implements EventStore {
  constructor(
    private readonly inner: EventStore,
    private readonly metrics: Metrics,
  ) {}

  async append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const result = await this.inner.append(stream, events, expected);
    this.metrics.eventsAppendedBy(events.length);
    return result;
  }

  readStream(stream: string, fromRevision?: number): Promise<RecordedEvent[]> {
    return this.inner.readStream(stream, fromRevision);
  }

  readAll(afterPosition: number, maxCount: number): Promise<RecordedEvent[]> {
    return this.inner.readAll(afterPosition, maxCount);
  }

  subscribeAll(afterPosition: number, handler: BatchHandler, options?: SubscribeOptions): Subscription {
    return this.inner.subscribeAll(afterPosition, handler, options);
  }

  headPosition(): Promise<number> {
    return this.inner.headPosition();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
