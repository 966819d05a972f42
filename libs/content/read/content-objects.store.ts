import { EMPTY_CONTENT, EMPTY_ROOT } from '@app/documents/tree/content';
import type { Hash } from '@app/documents/tree/hash';
import type { ObjectStore } from '@app/documents/tree/objects';
import { weightOf } from '@app/platform/domain/weight';
import { EVENT_STORE, type EventStore } from '@app/platform/eventstore/event-store.port';
import { type LogReads, logReadsOf } from '@app/platform/projector/projection';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { Inject, Injectable } from '@nestjs/common';
import { CONTENT_OBJECTS, readContentObject } from './content-object.projection';

/** Objects kept parsed in memory: they never change, so a kept one is never stale. */
const CACHE_SIZE = 100_000;
/**
 * What the objects kept weigh at most (`weightOf`: about their bytes on the heap): documents are most
 * of it, and an import of hundreds of pages would otherwise keep every one it wrote.
 */
const CACHE_WEIGHT = 32 * 1024 * 1024;
/** How long a writer waits for an object another process stored to reach the views. */
const ARRIVAL_TIMEOUT_MS = 5_000;

/**
 * Content objects for reads and writes: parsed once and kept (the oldest kept go first), otherwise read
 * from the log where the views say they are. A writer also keeps the objects it stores, so its next
 * change reads them at once; an object it needs that another process stored is on its way to the views
 * (it was appended before the change that names it), so `get` waits for it, bounded, rather than failing.
 */
@Injectable()
export class ContentObjects implements ObjectStore {
  private readonly cache = new Map<Hash, unknown>([[EMPTY_ROOT, EMPTY_CONTENT]]);
  /** The weight of each kept object but the empty content, and their sum. */
  private readonly weights = new Map<Hash, number>();
  private weight = 0;

  private readonly log: LogReads;

  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    @Inject(EVENT_STORE) events: EventStore,
  ) {
    this.log = logReadsOf(events);
  }

  get(hash: Hash): unknown | Promise<unknown> {
    const cached = this.cache.get(hash);
    return cached !== undefined ? cached : this.load(hash);
  }

  /** Keeps objects just stored. */
  remember(objects: ReadonlyMap<Hash, unknown>): void {
    for (const [hash, value] of objects) this.keep(hash, value);
  }

  private async load(hash: Hash): Promise<unknown> {
    const deadline = Date.now() + ARRIVAL_TIMEOUT_MS;
    for (let wait = 5; ; wait = Math.min(wait * 2, 200)) {
      const doc = await this.views.get(CONTENT_OBJECTS, hash);
      if (doc) return this.keep(hash, await readContentObject(doc, this.log, this.views));
      if (Date.now() + wait > deadline) return undefined;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  private keep(hash: Hash, value: unknown): unknown {
    if (hash === EMPTY_ROOT || this.weights.has(hash)) return value;
    const weight = weightOf(value);
    this.cache.set(hash, value);
    this.weights.set(hash, weight);
    this.weight += weight;
    while (this.weights.size > 1 && (this.weights.size > CACHE_SIZE || this.weight > CACHE_WEIGHT)) {
      const oldest = this.weights.keys().next().value as Hash;
      this.weight -= this.weights.get(oldest) as number;
      this.weights.delete(oldest);
      this.cache.delete(oldest);
    }
    return value;
  }
}
