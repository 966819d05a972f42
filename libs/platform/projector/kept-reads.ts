import { type ChangedCollections, cacheMayAnswer, type ViewChanges } from './view-changes';

export interface KeptReadsOptions<V> {
  /**
   * The views the values are read from: a change to one of them drops every kept value (with none, only
   * a change of unknown scope does, such as a switch to rebuilt views: values whose keys say which state
   * they were read from).
   */
  collections: readonly string[];
  /** A bound on memory, in the units of `weight`: past it the values kept first go first. */
  capacity: number;
  /** What a value weighs against `capacity` (1 when absent). */
  weight?: (value: V) => number;
}

/**
 * Values read from the views, by key, kept until one of their collections changes (announced by
 * `changes`); without announcements each is read anew. Concurrent requests for one key share its read,
 * and a value read while a change was announced is not kept, so a dropped value is never refilled from
 * the state before the change.
 */
export class KeptReads<V> {
  private readonly kept = new Map<string, V>();
  /** Reads under way, shared by the requests that need the same key meanwhile. */
  private readonly reading = new Map<string, { generation: number; value: Promise<V> }>();
  private readonly collections: ReadonlySet<string>;
  private weight = 0;
  private generation = 0;

  constructor(
    private readonly changes: ViewChanges | undefined,
    private readonly options: KeptReadsOptions<V>,
  ) {
    this.collections = new Set(options.collections);
    changes?.onChange((changed) => this.onChange(changed));
  }

  /** The value of `key`: the one kept, or the one `read` gives (kept unless a change raced with it). */
  async of(key: string, read: () => Promise<V>): Promise<V> {
    if (!cacheMayAnswer(this.changes)) return read();
    const found = this.kept.get(key);
    if (found !== undefined) return found;
    const generation = this.generation;
    let pending = this.reading.get(key);
    if (!pending || pending.generation !== generation) {
      const started = { generation, value: read() };
      pending = started;
      this.reading.set(key, started);
      // Kept (or, failed, forgotten) before any caller resumes: this reaction is the promise's first.
      const settled = () => {
        if (this.reading.get(key) === started) this.reading.delete(key);
      };
      started.value.then((value) => {
        settled();
        this.keep(key, generation, value);
      }, settled);
    }
    return pending.value;
  }

  /** The value kept for `key`, if any and if kept values may answer now: for answers made without waiting. */
  peek(key: string): V | undefined {
    return cacheMayAnswer(this.changes) ? this.kept.get(key) : undefined;
  }

  /** Whether `value` is the one kept for `key` (so worth more work that lasts as long as it does). */
  holds(key: string, value: V): boolean {
    return this.kept.get(key) === value;
  }

  private keep(key: string, generation: number, value: V): void {
    if (generation !== this.generation || this.changes?.active() !== true) return;
    const weight = this.options.weight?.(value) ?? 1;
    for (const [oldest, kept] of this.kept) {
      if (this.weight + weight <= this.options.capacity) break;
      this.kept.delete(oldest);
      this.weight -= this.options.weight?.(kept) ?? 1;
    }
    this.kept.set(key, value);
    this.weight += weight;
  }

  private onChange(changed: ChangedCollections): void {
    if (changed !== 'all' && ![...this.collections].some((c) => changed.has(c))) return;
    this.generation++;
    this.kept.clear();
    this.weight = 0;
  }
}
