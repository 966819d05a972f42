import type { Doc, ReadStore, Scalar, Write } from '../readstore/read-store.port';
import { FAN_OUT_LIMIT, type ViewContext } from './projection';

/**
 * Documents held back at most: the benchmark log's working set (100,000 spaces and as many entries of
 * the audit register) fits, so none is written out and read back again mid-replay; a rebuild of its
 * 1,000,000 events then peaks at 750–900 MB of RSS (B5, with the CLI's larger young generation).
 */
const DEFAULT_CAPACITY = 250_000;
/** Entries found last, checked before the map: the documents of one event (see `lookUp`). */
const RECENT = 4;

interface Held {
  collection: string;
  id: string;
  doc: Doc | null;
  /** Read or written since the clock last passed over it. */
  used: boolean;
  /** Changed and not yet in the store. */
  dirty: boolean;
  /** Evicted: its place in the clock is stale. */
  gone: boolean;
}

/** Maps keyed by collection, then id: no composite key is built per lookup, and ids keep their hash. */
class ByCollection<T> {
  private readonly maps = new Map<string, Map<string, T>>();

  get(collection: string, id: string): T | undefined {
    return this.maps.get(collection)?.get(id);
  }

  set(collection: string, id: string, value: T): void {
    let map = this.maps.get(collection);
    if (!map) {
      map = new Map();
      this.maps.set(collection, map);
    }
    map.set(id, value);
  }

  delete(collection: string, id: string): void {
    this.maps.get(collection)?.delete(id);
  }

  clear(): void {
    this.maps.clear();
  }
}

/**
 * What projections write through while a rebuild fills a fresh generation, which it is the only writer
 * of, in log order. Documents of collections that projections read (a space before each update, the
 * audit register) are updated again and again over a replay; written at every batch they would rewrite
 * random pages of the file each time. Held here instead, each is written once, when evicted or at the
 * end, in key order. Documents of collections never read (audit entries) are not held: they go out with
 * the batch that made them. No replay guard is needed (nothing stored can be ahead of an event), so a
 * write is the document.
 *
 * A batch's writes may still be on their way to the store while the next batch is applied (a store
 * whose commits take round trips): until `landed` says they are stored, reads are answered from them.
 */
export class RebuildBuffer {
  /** Held documents. */
  private readonly held = new ByCollection<Held>();
  /**
   * Held documents oldest first, for eviction: a clock giving a second chance to those used since they
   * were last passed over (moving an entry on every use costs more than it saves). `hand` is its start.
   */
  private clock: Held[] = [];
  private hand = 0;
  private size = 0;
  /** The entries last found or held, checked before `held` (see `lookUp`), and where the next one goes. */
  private recent: Held[] = [];
  private next = 0;
  /** This batch's writes of documents not held, in order. */
  private batch: Write[] = [];
  /** Collections projections have read: their documents are held, and their writes found by key. */
  private readonly read = new Set<string>();
  /** Writes handed out by `endBatch` or `drain` and not yet `landed`, in order. */
  private inFlight: Write[][] = [];
  /**
   * Writes not in the store yet, by key, the latest per document: those in flight of collections in
   * `read` (and every drained one), and this batch's made before its collection's first read.
   */
  private readonly pending = new ByCollection<Write>();
  /** Collections of which the store holds nothing yet: a document missing here is missing there. */
  private readonly empty = new Set<string>();
  /** Log position of the event being applied: each document written records it (`_pos`). */
  private position = 0;

  constructor(
    private readonly store: ReadStore,
    private readonly capacity = DEFAULT_CAPACITY,
    /** Called before the store answers a query on `collection` (to build its deferred indexes). */
    private readonly beforeFind: (collection: string) => Promise<void> = async () => {},
    /**
     * Waits until every commit already sent has landed. A query commits what it must see itself; sent
     * while an earlier commit is on its way it could write a document of that commit concurrently, and
     * a store whose commits overlap (MongoDB) keeps whichever lands last.
     */
    private readonly settle: () => Promise<void> = async () => {},
  ) {}

  /**
   * Declares collections the store starts without any document of (those of a fresh generation), so
   * that looking up a document not held there costs no read until something of theirs is written out.
   */
  startEmpty(collections: Iterable<string>): void {
    for (const collection of collections) this.empty.add(collection);
  }

  /** One context for every event, so that applying one allocates nothing for it; `at` moves it on. */
  private readonly context: ViewContext = {
    get: (collection, id) => this.get(collection, id),
    find: (collection, where) => this.find(collection, where),
    put: async (collection, doc) => this.write(collection, doc.id, doc),
    delete: async (collection, id) => this.write(collection, id, null),
  };

  /** The context to apply the event at `position` through. */
  at(position: number): ViewContext {
    this.position = position;
    return this.context;
  }

  /**
   * Ends a batch: returns the writes to commit now, the batch's writes of documents not held and any
   * held documents evicted to make room. Reads see them until they have `landed`.
   */
  endBatch(): Write[] {
    const out = this.takeBatch();
    this.evict(out);
    if (out.length > 0) this.inFlight.push(out);
    return out;
  }

  /** The store has committed `writes`, handed out by `endBatch`: reads may go to it for them. */
  landed(writes: Write[]): void {
    this.inFlight = this.inFlight.filter((batch) => batch !== writes);
    for (const write of writes) {
      if (this.pending.get(write.collection, write.id) === write)
        this.pending.delete(write.collection, write.id);
    }
  }

  /**
   * Every write not yet handed out, in key order and in parts of at most `part` writes, emptying the
   * buffer. Reads see them until they have `landed`.
   */
  drain(part = Number.POSITIVE_INFINITY): Write[][] {
    const writes = [...this.takeBatch(), ...this.takeDirty()].sort((a, b) =>
      a.collection === b.collection ? compare(a.id, b.id) : compare(a.collection, b.collection),
    );
    this.held.clear();
    this.recent = [];
    this.next = 0;
    this.clock = [];
    this.hand = 0;
    this.size = 0;
    const parts: Write[][] = [];
    for (let i = 0; i < writes.length; i += part) parts.push(writes.slice(i, i + part));
    for (const write of writes) this.pending.set(write.collection, write.id, write);
    this.inFlight.push(...parts);
    return parts;
  }

  private async get<T extends Doc>(collection: string, id: string): Promise<T | null> {
    const entry = this.lookUp(collection, id);
    if (entry) {
      entry.used = true;
      return entry.doc as T | null;
    }
    if (!this.read.has(collection)) this.startReading(collection);
    const written = this.pending.get(collection, id);
    if (written) return written.doc as T | null;
    const doc = this.empty.has(collection) ? null : await this.store.get<T>(collection, id);
    this.hold({ collection, id, doc, used: false, dirty: false, gone: false });
    return doc;
  }

  /** Rare (fan-outs): the store answers once it holds every document. */
  private async find<T extends Doc>(collection: string, where: Record<string, Scalar>): Promise<T[]> {
    await this.settle();
    const writes = [...this.takeBatch(), ...this.takeDirty()];
    await this.store.commit(writes);
    this.landed(writes);
    await this.beforeFind(collection);
    return (await this.store.find<T>(collection, { where, limit: FAN_OUT_LIMIT })).items;
  }

  private write(collection: string, id: string, doc: Doc | null): void {
    const next = doc === null ? null : this.stamped(doc);
    const entry = this.lookUp(collection, id);
    if (entry) {
      entry.doc = next;
      entry.used = true;
      entry.dirty = true;
      return;
    }
    if (this.read.has(collection)) {
      this.hold({ collection, id, doc: next, used: true, dirty: true, gone: false });
      return;
    }
    this.batch.push({ collection, id, doc: next });
  }

  /**
   * The document with the position of its event. A document put is handed over (projections build a
   * new one for each write), so it is stamped as it is rather than copied, unless it is frozen.
   */
  private stamped(doc: Doc): Doc {
    if (Object.isFrozen(doc)) return { ...doc, _pos: this.position };
    doc._pos = this.position;
    return doc;
  }

  /**
   * From the first read of `collection` on, its writes are held, and those already made are found by
   * key: this batch's and the in-flight ones, latest last.
   */
  private startReading(collection: string): void {
    this.read.add(collection);
    for (const writes of [...this.inFlight, this.batch]) {
      for (const write of writes)
        if (write.collection === collection) this.pending.set(collection, write.id, write);
    }
  }

  /**
   * The held entry of a document. An event's handlers touch the same few documents again and again (read
   * a space, then write it; the actor's register entry on every event), so the last ones found are
   * checked first: a lookup in a map of a hundred thousand entries mostly misses the CPU's caches.
   */
  private lookUp(collection: string, id: string): Held | undefined {
    for (const entry of this.recent) {
      if (entry.id === id && entry.collection === collection && !entry.gone) return entry;
    }
    const entry = this.held.get(collection, id);
    if (entry) this.remember(entry);
    return entry;
  }

  private remember(entry: Held): void {
    this.recent[this.next] = entry;
    this.next = (this.next + 1) % RECENT;
  }

  private hold(entry: Held): void {
    this.remember(entry);
    this.held.set(entry.collection, entry.id, entry);
    this.clock.push(entry);
    this.size++;
  }

  /** Evicts past capacity what was not used since the clock last passed over it; dirty ones go to `out`. */
  private evict(out: Write[]): void {
    // Entries moved to the end are visited again, unused by then, so this ends.
    while (this.size > this.capacity) {
      const entry = this.clock[this.hand++];
      if (entry.gone) continue;
      if (entry.used) {
        entry.used = false;
        this.clock.push(entry);
        continue;
      }
      entry.gone = true;
      this.size--;
      this.held.delete(entry.collection, entry.id);
      if (!entry.dirty) continue;
      const write = { collection: entry.collection, id: entry.id, doc: entry.doc };
      this.writtenOut(write);
      this.pending.set(write.collection, write.id, write);
      out.push(write);
    }
    // Drops the clock's passed-over part once it outweighs the rest.
    if (this.hand > 1024 && this.hand * 2 > this.clock.length) {
      this.clock = this.clock.slice(this.hand);
      this.hand = 0;
    }
  }

  private writtenOut(write: Write): void {
    if (write.doc !== null) this.empty.delete(write.collection);
  }

  /** The batch's writes of documents not held, which go to the store now. */
  private takeBatch(): Write[] {
    const out = this.batch;
    this.batch = [];
    for (const write of out) this.writtenOut(write);
    return out;
  }

  private takeDirty(): Write[] {
    const writes: Write[] = [];
    for (let i = this.hand; i < this.clock.length; i++) {
      const entry = this.clock[i];
      if (entry.gone || !entry.dirty) continue;
      entry.dirty = false;
      const write = { collection: entry.collection, id: entry.id, doc: entry.doc };
      this.writtenOut(write);
      writes.push(write);
    }
    return writes;
  }
}
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
