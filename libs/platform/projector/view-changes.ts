import { AsyncLocalStorage } from 'node:async_hooks';
import type { RecordedEvent } from '../eventstore/event-store.port';
import type { Projection } from './projection';

/** The collections a change of the views touched, or `all` when that is not known (a generation switch). */
export type ChangedCollections = ReadonlySet<string> | 'all';

/**
 * Tells in-memory caches of the views when the views changed, once the change is readable, so a cache
 * dropped on that notice cannot be refilled from the old state.
 */
export interface ViewChanges {
  onChange(listener: (changed: ChangedCollections) => void): void;
  /** Whether changes are being announced now; a cache must not keep entries while they are not. */
  active(): boolean;
  /** Whether every change up to `position` has been announced. */
  covers(position: number): boolean;
}

const readFloor = new AsyncLocalStorage<number>();

/** Runs `fn` as a read that must see the log up to `position` (an internal call from a gateway). */
export function withReadFloor<T>(position: number, fn: () => T): T {
  return readFloor.run(position, fn);
}

/** The log position the current read must see; 0 outside such a read. */
export function currentReadFloor(): number {
  return readFloor.getStore() ?? 0;
}

/** Whether a cache kept by `changes` may answer the current read: changes are announced up to its floor. */
export function cacheMayAnswer(changes: ViewChanges | undefined): boolean {
  return changes?.active() === true && changes.covers(currentReadFloor());
}

export const VIEW_CHANGES = Symbol('VIEW_CHANGES');

/** Which collections each event type's projections write. */
export function collectionsByType(projections: readonly Projection[]): Map<string, Set<string>> {
  const map = new Map<string, Set<string>>();
  for (const p of projections) {
    for (const type of p.handles) {
      const collections = map.get(type) ?? new Set<string>();
      for (const collection of p.collections) collections.add(collection);
      map.set(type, collections);
    }
  }
  return map;
}

export function collectionsTouched(
  events: readonly RecordedEvent[],
  byType: Map<string, Set<string>>,
): Set<string> {
  const touched = new Set<string>();
  for (const event of events) for (const collection of byType.get(event.type) ?? []) touched.add(collection);
  return touched;
}

/** Listeners of view changes; a failing listener does not stop the others or the projector. */
export class ChangeListeners {
  private readonly listeners: ((changed: ChangedCollections) => void)[] = [];

  add(listener: (changed: ChangedCollections) => void): void {
    this.listeners.push(listener);
  }

  announce(changed: ChangedCollections): void {
    if (changed !== 'all' && changed.size === 0) return;
    for (const listener of this.listeners) {
      try {
        listener(changed);
      } catch (error) {
        process.stderr.write(`view change listener failed: ${String(error)}\n`);
      }
    }
  }
}
