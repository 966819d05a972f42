import {
  type Doc,
  documentKey,
  type FindQuery,
  type Page,
  type ReadStore,
  type Write,
} from '../readstore/read-store.port';

/** Documents held back at most: with 1,000,000 events to replay, a rebuild then peaks near 960 MB of RSS (B5). */
const DEFAULT_CAPACITY = 120_000;

/**
 * A write-back buffer for a rebuild, which is the only writer of the generation it fills. Documents a
 * projection reads (a space before each update, the audit register) are updated again and again over
 * a replay; written at every batch they would rewrite random pages of the file each time. Held here
 * instead, each is written once, when evicted or at the end, in key order. Documents only ever written
 * (audit entries) are not held: they go out with the batch that made them.
 */
export class RebuildBuffer {
  /**
   * Held documents, oldest first. Eviction gives a second chance to those used since they were last
   * passed over (a clock, not a strict LRU: moving an entry on every use costs more than it saves).
   * `dirty` marks those not yet in the store.
   */
  private readonly held = new Map<string, Held>();
  private readonly dirty = new Set<string>();
  /** Collections of which the store holds nothing yet: a document missing here is missing there. */
  private readonly empty = new Set<string>();

  constructor(
    private readonly store: ReadStore,
    private readonly capacity = DEFAULT_CAPACITY,
    /** Called before the store answers a query on `collection` (to build its deferred indexes). */
    private readonly beforeFind: (collection: string) => Promise<void> = async () => {},
  ) {}

  /**
   * Declares collections the store starts without any document of (those of a fresh generation), so
   * that looking up a document not held there costs no read until something of theirs is written out.
   */
  startEmpty(collections: Iterable<string>): void {
    for (const collection of collections) this.empty.add(collection);
  }

  /** The reads a unit of work makes, answered from held documents first. */
  readonly reads: Pick<ReadStore, 'get' | 'find'> = {
    get: async <T extends Doc>(collection: string, id: string): Promise<T | null> => {
      const key = documentKey(collection, id);
      const entry = this.held.get(key);
      if (entry) {
        entry.used = true;
        return entry.doc as T | null;
      }
      const doc = this.empty.has(collection) ? null : await this.store.get<T>(collection, id);
      this.held.set(key, { collection, id, doc, used: false });
      return doc;
    },
    // Rare (fan-outs): the store answers once it holds every document.
    find: async <T extends Doc>(collection: string, query: FindQuery): Promise<Page<T>> => {
      await this.store.commit(this.takeDirty());
      await this.beforeFind(collection);
      return this.store.find<T>(collection, query);
    },
  };

  /**
   * Takes a batch's writes: those to held documents stay held, the rest are returned to be committed
   * now, with any documents evicted to make room.
   */
  absorb(writes: Write[]): Write[] {
    const out: Write[] = [];
    for (const write of writes) {
      const key = documentKey(write.collection, write.id);
      const entry = this.held.get(key);
      if (!entry) {
        this.writtenOut(write);
        out.push(write);
        continue;
      }
      entry.doc = write.doc;
      entry.used = true;
      this.dirty.add(key);
    }
    let excess = this.held.size - this.capacity;
    // Entries moved to the end are visited again, unused by then, so this ends.
    for (const [key, entry] of this.held) {
      if (excess <= 0) break;
      this.held.delete(key);
      if (entry.used) {
        entry.used = false;
        this.held.set(key, entry);
        continue;
      }
      excess--;
      if (!this.dirty.delete(key)) continue;
      const write = { collection: entry.collection, id: entry.id, doc: entry.doc };
      this.writtenOut(write);
      out.push(write);
    }
    return out;
  }

  private writtenOut(write: Write): void {
    if (write.doc !== null) this.empty.delete(write.collection);
  }

  /** Every held write not yet in the store, in key order, emptying the buffer. */
  drain(): Write[] {
    const writes = this.takeDirty().sort((a, b) =>
      a.collection === b.collection ? compare(a.id, b.id) : compare(a.collection, b.collection),
    );
    this.held.clear();
    return writes;
  }

  private takeDirty(): Write[] {
    const writes: Write[] = [];
    for (const key of this.dirty) {
      const entry = this.held.get(key);
      if (!entry) continue;
      const write = { collection: entry.collection, id: entry.id, doc: entry.doc };
      this.writtenOut(write);
      writes.push(write);
    }
    this.dirty.clear();
    return writes;
  }
}

interface Held {
  collection: string;
  id: string;
  doc: Doc | null;
  used: boolean;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
