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

/**
 * Longest a checkpoint that only skips unrelated events waits to be committed. Those commits would
 * otherwise contend with the projector for the views' write lock after every append, and each one
 * made through another connection than the projector's empties that connection's page cache (SQLite
 * starts over on a file another connection wrote): once a second, under a steady load of merges, the
 * projector read several hundred pages back. An event re-read after a crash is harmless, since
 * reactions have one effect when repeated.
 */
const IDLE_CHECKPOINT_MS = 10_000;

export class Reactor {
  private subscription?: Subscription;
  /** Position handled, and position in the views' checkpoint, and when that was last written. */
  private handled = 0;
  private committed = 0;
  private committedAt = 0;
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
    this.handled = this.committed = from;
    this.committedAt = Date.now();
    this.subscription = this.events.subscribeAll(from, (batch, through) => this.handle(batch, through), {
      types: this.reaction.handles,
    });
  }

  private async handle(batch: RecordedEvent[], through?: number): Promise<void> {
    let reacted = false;
    for (const event of batch) {
      if (!this.reaction.handles.includes(event.type)) continue;
      await this.reaction.react(upcast(event));
      reacted = true;
    }
    const last = through ?? batch.at(-1)?.position;
    if (last === undefined || last <= this.handled) return;
    this.handled = last;
    if (reacted || Date.now() - this.committedAt >= IDLE_CHECKPOINT_MS) await this.saveCheckpoint();
  }

  private async saveCheckpoint(): Promise<void> {
    if (this.handled === this.committed) return;
    const position = this.handled;
    await this.views.commit([], { name: this.checkpointName, position });
    this.committed = position;
    this.committedAt = Date.now();
  }

  async stop(): Promise<void> {
    await this.subscription?.close();
    this.subscription = undefined;
    await this.saveCheckpoint();
  }
}
