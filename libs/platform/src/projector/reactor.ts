import {
  EVENT_STORE,
  type EventStore,
  type RecordedEvent,
  type Subscription,
} from '../eventstore/event-store.port';
import { upcast } from '../eventstore/upcasters';
import type { ReadStore } from '../readstore/read-store.port';

/**
 * A process manager: follows the log from its own checkpoint and reacts to events (usually by enqueueing
 * a job with an id derived from the event, so a reaction repeated after a crash has one effect).
 */
export interface Reaction {
  name: string;
  handles: readonly string[];
  react(event: RecordedEvent): Promise<void>;
  /**
   * True when a sweep over the views redoes whatever the reaction would have done for past events:
   * a reaction with no checkpoint yet then starts at the head instead of reading the whole log.
   */
  coveredBySweep?: boolean;
}

export class Reactor {
  private subscription?: Subscription;
  static readonly tokens = { EVENT_STORE };

  constructor(
    private readonly events: EventStore,
    private readonly views: ReadStore,
    private readonly reaction: Reaction,
  ) {}

  private get checkpointName() {
    return `reaction:${this.reaction.name}`;
  }

  async start(): Promise<void> {
    let from = await this.views.getCheckpoint(this.checkpointName);
    if (from === 0 && this.reaction.coveredBySweep) {
      from = await this.events.headPosition();
      await this.views.commit([], { name: this.checkpointName, position: from });
    }
    this.subscription = this.events.subscribeAll(from, (batch) => this.handle(batch));
  }

  private async handle(batch: RecordedEvent[]): Promise<void> {
    for (const event of batch) {
      if (this.reaction.handles.includes(event.type)) await this.reaction.react(upcast(event));
    }
    const last = batch.at(-1);
    if (last) await this.views.commit([], { name: this.checkpointName, position: last.position });
  }

  async stop(): Promise<void> {
    await this.subscription?.close();
    this.subscription = undefined;
  }
}
