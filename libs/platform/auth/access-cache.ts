import { type ChangedCollections, cacheMayAnswer, type ViewChanges } from '../projector/view-changes';

/** Entries per map before it is emptied: a bound on memory, far above the tokens and members in use. */
const MAX_ENTRIES = 10_000;

/**
 * Keeps lookups of a few read-model collections in memory and drops them all when the views announce
 * a change to one of those collections. A lookup that raced with such a change is not kept: the
 * generation it started in is compared when it ends. Without an active change feed nothing is kept.
 */
export class AccessCache {
  private generation = 0;
  private readonly maps = new Map<string, Map<string, unknown>>();

  constructor(
    private readonly changes: ViewChanges | undefined,
    private readonly collections: readonly string[],
  ) {
    changes?.onChange((changed) => this.onChange(changed));
  }

  async lookup<T>(
    collection: string,
    key: string,
    load: () => Promise<T>,
    keep: (value: T) => boolean = () => true,
  ): Promise<T> {
    // A read that must see a position the changes are not announced up to yet goes to the views.
    if (!cacheMayAnswer(this.changes)) return load();
    let map = this.maps.get(collection);
    if (map?.has(key)) return map.get(key) as T;
    const generation = this.generation;
    const value = await load();
    if (generation === this.generation && keep(value) && this.changes?.active()) {
      if (!map) {
        map = new Map();
        this.maps.set(collection, map);
      }
      if (map.size >= MAX_ENTRIES) map.clear();
      map.set(key, value);
    }
    return value;
  }

  /** What `lookup` would answer from memory, or undefined when it would have to load. */
  peek<T>(collection: string, key: string): T | undefined {
    if (!cacheMayAnswer(this.changes)) return undefined;
    return this.maps.get(collection)?.get(key) as T | undefined;
  }

  private onChange(changed: ChangedCollections): void {
    if (changed !== 'all' && !this.collections.some((collection) => changed.has(collection))) return;
    this.generation++;
    this.maps.clear();
  }
}
