import { weightOf } from '../domain/weight';
import type { ForeignWrite } from '../threads/storage-thread';
import {
  type CheckpointWrite,
  type Doc,
  documentKey,
  type FindQuery,
  type IndexSpec,
  type Page,
  type ReadStore,
  type Write,
} from './read-store.port';

/** Documents kept at most before the cache starts over: a bound on memory, far above a working set. */
const DEFAULT_CAPACITY = 50_000;
/**
 * What they weigh at most (`weightOf`, about their bytes on the heap) before it starts over: a
 * projection reading every content object of a large merge would otherwise keep them all.
 */
const DEFAULT_MAX_WEIGHT = 64 * 1024 * 1024;

/** How stale the live generation may be when a read is served: another process may promote one. */
const GENERATION_CHECK_MS = 250;

/**
 * Keeps documents read by `get` in memory, updated by every commit made through this handle
 * (write-through). For a process whose projector writes the live views: the projector commits through
 * this handle, or, on a thread of its own, reports each commit here (`learn`). The other writer the live views can have is a rebuild promoted by another process; a
 * read looks at the live generation when the last look is older than GENERATION_CHECK_MS, and every
 * look (`generation()`, also the projector's) that finds it changed empties the cache.
 *
 * Documents handed out are frozen (deeply), since callers share them; a caller that changes a document
 * it read must copy it, as projections already do.
 */
export class CachedReadStore implements ReadStore {
  /** A document, or null once deleted through this handle. */
  private readonly docs = new Map<string, Doc | null>();
  /** What the documents kept weigh, counted as they are kept (a replaced one keeps its first weight). */
  private weight = 0;
  /** Advances on every change, so that a read that raced with one does not store what it read. */
  private epoch = 0;
  /** The live generation as last looked at, and when. */
  private live?: number;
  private lookedAt = 0;

  constructor(
    private readonly store: ReadStore,
    private readonly capacity = DEFAULT_CAPACITY,
    private readonly maxWeight = DEFAULT_MAX_WEIGHT,
  ) {}

  async get<T extends Doc = Doc>(collection: string, id: string): Promise<T | null> {
    if (this.generationStale()) await this.generation();
    const key = documentKey(collection, id);
    const kept = this.docs.get(key);
    if (kept !== undefined) return kept as T | null;
    const epoch = this.epoch;
    const doc = await this.store.get<T>(collection, id);
    // Absences are not kept: most are the projector's look for a document it is about to create.
    if (doc !== null && epoch === this.epoch) this.keep(key, doc);
    return doc;
  }

  async commit(writes: Write[], checkpoint?: CheckpointWrite): Promise<void> {
    this.epoch++;
    try {
      await this.store.commit(writes, checkpoint);
    } catch (error) {
      this.forget();
      throw error;
    }
    this.epoch++;
    for (const { collection, id, doc } of writes)
      this.replaceKept(collection, id, () => doc && { ...doc, id });
  }

  /**
   * Learns of a commit another connection made to the live views (a projector on another thread), once
   * it is readable: kept documents take the values written; `all` (a switch of generation) empties the cache.
   * A deletion forgets the document rather than keeping its absence: that thread does not report the
   * documents it creates (`committedMessage`), so a re-creation would never replace the marker.
   */
  learn(writes: readonly ForeignWrite[] | 'all'): void {
    if (writes === 'all') {
      this.forget();
      // The next read looks the live generation up first: the switch may be one this connection has not seen.
      this.lookedAt = 0;
      return;
    }
    this.epoch++;
    for (const { collection, id, json } of writes) {
      if (json === null) this.docs.delete(documentKey(collection, id));
      else this.replaceKept(collection, id, () => JSON.parse(json) as Doc);
    }
  }

  /**
   * Gives a kept document the value written (built only then). A document that was not kept is not worth
   * keeping because it was written: it may not be read.
   */
  private replaceKept(collection: string, id: string, written: () => Doc | null): void {
    const key = documentKey(collection, id);
    if (!this.docs.has(key)) return;
    const doc = written();
    this.docs.set(key, doc === null ? null : deepFreeze(doc));
  }

  async find<T extends Doc = Doc>(collection: string, query: FindQuery): Promise<Page<T>> {
    if (this.generationStale()) await this.generation();
    return this.store.find<T>(collection, query);
  }

  /** Whether a read should look at the live generation first (no await when not: reads stay in one tick). */
  private generationStale(): boolean {
    return Date.now() - this.lookedAt > GENERATION_CHECK_MS;
  }

  ensureIndexes(indexes: IndexSpec[], options?: { deferred?: boolean }): Promise<void> {
    return this.store.ensureIndexes(indexes, options);
  }

  getCheckpoint(name: string): Promise<number> {
    return this.store.getCheckpoint(name);
  }

  all<T extends Doc = Doc>(collection: string): Promise<T[]> {
    return this.store.all<T>(collection);
  }

  collections(): Promise<string[]> {
    return this.store.collections();
  }

  async clear(): Promise<void> {
    this.forget();
    await this.store.clear();
    this.forget();
  }

  close(): Promise<void> {
    this.forget();
    return this.store.close();
  }

  async generation(): Promise<number> {
    const live = await this.store.generation();
    if (live !== this.live) {
      if (this.live !== undefined) this.forget();
      this.live = live;
    }
    this.lookedAt = Date.now();
    return live;
  }

  createGeneration(): Promise<number> {
    return this.store.createGeneration();
  }

  /** Generations other than the live one are only filled by rebuilds: not cached. */
  forGeneration(generation: number): ReadStore {
    return this.store.forGeneration(generation);
  }

  forRebuild(generation: number): ReadStore {
    return this.store.forRebuild(generation);
  }

  copyCollections(to: number, collections: string[], checkpoint: string): Promise<number> {
    return this.store.copyCollections(to, collections, checkpoint);
  }

  async promote(generation: number, options?: { checkpoint?: string }): Promise<boolean> {
    this.forget();
    try {
      return await this.store.promote(generation, options);
    } finally {
      this.forget();
      this.lookedAt = 0;
    }
  }

  private keep(key: string, doc: Doc): void {
    const weight = weightOf(doc);
    if (this.docs.size >= this.capacity || this.weight + weight > this.maxWeight) this.dropAll();
    this.docs.set(key, deepFreeze(doc));
    this.weight += weight;
  }

  private forget(): void {
    this.epoch++;
    this.dropAll();
  }

  private dropAll(): void {
    this.docs.clear();
    this.weight = 0;
  }
}

function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}
