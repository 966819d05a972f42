import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { EventStore, RecordedEvent, Subscription } from '../eventstore/event-store.port';
import type { Projection } from '../projector/projection';
import {
  type ChangedCollections,
  ChangeListeners,
  collectionsByType,
  collectionsTouched,
  type ViewChanges,
} from '../projector/view-changes';
import type { ViewsCheckpoint } from './views-checkpoint';

/** How long one batch waits for the projector before the subscription delivers it again. */
const VIEWS_WAIT_MS = 60_000;

/**
 * View changes for a service whose views are written by a projector in another process: follows the
 * log from the views' checkpoint and announces each batch's collections once the views include it.
 */
export class FollowedViewChanges implements ViewChanges, OnApplicationBootstrap, OnApplicationShutdown {
  private position = -1;
  private subscription?: Subscription;
  private readonly changes = new ChangeListeners();
  private readonly byType: Map<string, Set<string>>;

  constructor(
    private readonly events: EventStore,
    private readonly checkpoint: ViewsCheckpoint,
    projections: readonly Projection[],
  ) {
    this.byType = collectionsByType(projections);
  }

  onChange(listener: (changed: ChangedCollections) => void): void {
    this.changes.add(listener);
  }

  async onApplicationBootstrap(): Promise<void> {
    // From the views' checkpoint: caches fill from the views as they are, and every later change of
    // the views is then announced (from the head, changes still being projected would be missed).
    this.position = await this.checkpoint.current();
    this.subscription = this.events.subscribeAll(this.position, (batch) => this.follow(batch));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscription?.close();
  }

  covers(position: number): boolean {
    return this.position >= 0 && this.position >= position;
  }

  active(): boolean {
    return this.subscription !== undefined;
  }

  private async follow(batch: RecordedEvent[]): Promise<void> {
    const last = batch[batch.length - 1].position;
    await this.checkpoint.waitFor(last, VIEWS_WAIT_MS);
    this.changes.announce(collectionsTouched(batch, this.byType));
    this.position = last;
  }
}
