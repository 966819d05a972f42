import { EMPTY_CONTENT, EMPTY_ROOT } from '@app/documents/tree/content';
import type { Hash } from '@app/documents/tree/hash';
import type { ObjectStore } from '@app/documents/tree/objects';
import { EVENT_STORE, type EventStore } from '@app/platform/eventstore/event-store.port';
import { type LogReads, logReadsOf } from '@app/platform/projector/projection';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { Inject, Injectable } from '@nestjs/common';
import { CONTENT_OBJECTS, readContentObject } from './content-object.projection';

/** Objects kept parsed in memory: they never change, so a kept one is never stale. */
const CACHE_SIZE = 100_000;
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

  /** Keeps objects just stored (canonical JSON by hash). */
  remember(objects: Record<Hash, string> | ReadonlyMap<Hash, unknown>): void {
    if (objects instanceof Map) for (const [hash, value] of objects) this.keep(hash, value);
    else for (const hash in objects) this.keep(hash, JSON.parse((objects as Record<Hash, string>)[hash]));
  }

  private async load(hash: Hash): Promise<unknown> {
    const deadline = Date.now() + ARRIVAL_TIMEOUT_MS;
    for (let wait = 5; ; wait = Math.min(wait * 2, 200)) {
      const doc = await this.views.get(CONTENT_OBJECTS, hash);
      if (doc) return this.keep(hash, await readContentObject(doc, this.log));
      if (Date.now() + wait > deadline) return undefined;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  private keep(hash: Hash, value: unknown): unknown {
    this.cache.set(hash, value);
    if (this.cache.size > CACHE_SIZE) {
      const oldest = this.cache.keys().next().value as Hash;
      if (oldest !== EMPTY_ROOT) this.cache.delete(oldest);
    }
    return value;
  }
}
