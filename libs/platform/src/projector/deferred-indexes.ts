import type { IndexSpec, ReadStore } from '../readstore/read-store.port';

/**
 * The indexes of a generation a rebuild fills. Built once the load is done: sorting a full table once is
 * far cheaper than inserting a million rows into each index one by one. A collection a projection
 * queries during the load (a fan-out) gets its indexes at its first query, so that query is no scan.
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

  /** Builds the indexes of `collection`, or of every collection, that are not built yet. */
  async build(collection?: string): Promise<void> {
    const names = collection === undefined ? [...this.pending.keys()] : [collection];
    const specs = names.flatMap((name) => this.pending.get(name) ?? []);
    if (specs.length === 0) return;
    await this.store.ensureIndexes(specs);
    for (const name of names) this.pending.delete(name);
  }
}
