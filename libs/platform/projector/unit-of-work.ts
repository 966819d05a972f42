import { weightOf } from '../domain/weight';
import type { RecordedEvent } from '../eventstore/event-store.port';
import { type Doc, documentKey, type ReadStore, type Scalar, type Write } from '../readstore/read-store.port';
import { FAN_OUT_LIMIT, type ViewContext, type WriteOptions } from './projection';

function matches(doc: Doc, where: Record<string, Scalar>): boolean {
  return Object.entries(where).every(([key, value]) => (doc[key] ?? null) === value);
}

/**
 * Where a unit of work writes out what it holds once that weighs more than `maxWeight` (`weightOf`):
 * the store, without the checkpoint.
 */
export interface Spill {
  maxWeight: number;
  write(writes: Write[]): Promise<void>;
}

/**
 * Buffers one batch of projection writes over the read store. Each document keeps the log position of
 * the last event applied to it (`_pos`); a write from an event at or before that position is dropped,
 * so replaying events after a crash between the writes and the checkpoint neither loses nor doubles.
 *
 * With a `spill`, writes that outgrow it are written out before the batch ends (a merge of thousands
 * of pages indexes each one: held to the end, its writes took tens of MB): the same guard makes that
 * safe, as it is a crash between writes and checkpoint; the batch reads them back from the store.
 */
export class UnitOfWork {
  /** This batch's writes by document key, in the order of each document's first write. */
  private readonly overlay = new Map<string, Write>();
  /** Position of each document as stored before this batch, for the replay guard; null when not stored. */
  private readonly storedPos = new Map<string, number | null>();
  /** What the writes held weigh, about (a document written twice counts twice). */
  private weight = 0;

  constructor(
    private readonly store: Pick<ReadStore, 'get' | 'find'>,
    private readonly spill?: Spill,
  ) {}

  forEvent(event: RecordedEvent): ViewContext {
    return {
      get: (collection, id) => this.get(collection, id),
      find: (collection, where) => this.find(collection, where),
      put: (collection, doc, options) => this.write(event, collection, doc.id, doc, options),
      delete: (collection, id, options) => this.write(event, collection, id, null, options),
    };
  }

  /** The batch's writes; those creating a document the store did not hold are marked `created`. */
  writes(): Write[] {
    return [...this.overlay].map(([key, write]) =>
      write.doc !== null && this.storedPos.get(key) === null ? { ...write, created: true } : write,
    );
  }

  private remember(key: string, doc: Doc | null): void {
    this.storedPos.set(key, doc === null ? null : (doc._pos ?? 0));
  }

  private async get<T extends Doc>(collection: string, id: string): Promise<T | null> {
    const key = documentKey(collection, id);
    const written = this.overlay.get(key);
    if (written) return written.doc as T | null;
    const doc = await this.store.get<T>(collection, id);
    this.remember(key, doc);
    return doc;
  }

  private async find<T extends Doc>(collection: string, where: Record<string, Scalar>): Promise<T[]> {
    const stored = await this.store.find<T>(collection, { where, limit: FAN_OUT_LIMIT });
    const out = new Map<string, T>();
    for (const doc of stored.items) {
      const key = documentKey(collection, doc.id);
      if (this.overlay.has(key)) continue;
      this.remember(key, doc);
      out.set(doc.id, doc);
    }
    for (const { collection: written, doc } of this.overlay.values()) {
      if (doc && written === collection && matches(doc, where)) out.set(doc.id, doc as T);
    }
    return [...out.values()];
  }

  private async write(
    event: RecordedEvent,
    collection: string,
    id: string,
    doc: Doc | null,
    options?: WriteOptions,
  ): Promise<void> {
    const key = documentKey(collection, id);
    const next = doc ? { ...doc, id, _pos: event.position } : null;
    const written = this.overlay.get(key);
    if (written) {
      written.doc = next;
    } else if (options?.selfGuarded) {
      this.overlay.set(key, { collection, id, doc: next, blind: true });
    } else {
      if (!this.storedPos.has(key)) this.remember(key, await this.store.get(collection, id));
      // The stored document already includes this event: we are replaying after a crash.
      if ((this.storedPos.get(key) ?? 0) >= event.position) return;
      this.overlay.set(key, { collection, id, doc: next });
    }
    if (!this.spill) return;
    this.weight += next ? weightOf(next) : 0;
    if (this.weight > this.spill.maxWeight) await this.spillOut(this.spill);
  }

  /** Writes out what is held; documents written are read back from the store, their position with them. */
  private async spillOut(spill: Spill): Promise<void> {
    const writes = this.writes();
    await spill.write(writes);
    this.overlay.clear();
    for (const { collection, id } of writes) this.storedPos.delete(documentKey(collection, id));
    this.weight = 0;
  }
}
