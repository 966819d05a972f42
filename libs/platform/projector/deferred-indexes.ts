import type { IndexSpec, ReadStore } from '../readstore/read-store.port';

/**
 * The indexes of a generation a rebuild fills. Built once the load is done: sorting a full table once is
 * far cheaper than inserting a million rows into each index one by one. A collection a projection
 * queries during the load (a fan-out) gets its indexes at its first query, so that query is no scan.
 *
 * Each index is built in a transaction of its own: a build holds the file's write lock, and a server
 * on the same views (whose projector commits there) waits for it only as long as one index takes, not
 * all of them (the four audit indexes of a million-event log take ~10 s together, past the 5 s that
 * a commit waits for the lock before it fails and is retried).
 */
export class DeferredIndexes {
  private readonly pending = new Map<string, IndexSpec[]>();

  constructor(
    private readonly store: ReadStore,
    private readonly specs: IndexSpec[],
  ) {
    for (const spec of specs)
      this.pending.set(spec.collection, [...(this.pending.get(spec.collection) ?? []), spec]);
  }

  /** Prepares what writes need (the indexed fields' columns) without building any index. */
  prepare(): Promise<void> {
    return this.store.ensureIndexes(this.specs, { deferred: true });
  }

  /** Builds the indexes not built yet of `collection`, of the collections `which` selects, or of every one. */
  async build(which?: string | ((collection: string) => boolean)): Promise<void> {
    const names =
      typeof which === 'string' ? [which] : [...this.pending.keys()].filter((name) => which?.(name) ?? true);
    for (const name of names) {
      const specs = this.pending.get(name) ?? [];
      while (specs.length > 0) {
        await this.store.ensureIndexes([specs[0]]);
        specs.shift();
      }
      this.pending.delete(name);
    }
  }
}
