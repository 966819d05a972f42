import type { DomainEvent } from '../domain/decider';
import type { EventMetadata, RecordedEvent } from '../eventstore/event-store.port';
import { upcast } from '../eventstore/upcasters';
import type {
  CollectionName,
  Doc,
  FindQuery,
  Page,
  ReadStore,
  Scalar,
  Write,
} from '../readstore/read-store.port';
import type { LogReads, Projection, ViewContext } from './projection';
import { RebuildBuffer } from './rebuild-buffer';
import { UnitOfWork } from './unit-of-work';

/**
 * Given-events / then-documents for projections, in the spirit of `decider.testing.ts`. Events go
 * through the projector's own machinery (the real `UnitOfWork` with its replay guard, the real
 * `RebuildBuffer`) over an in-memory store that keeps documents as JSON, as the real stores do: what
 * a projection can observe (reads see earlier writes, `put` replaces, a stored document is a copy,
 * `undefined` fields vanish) is what it observes in production.
 */

const T0 = Date.parse('2026-01-01T00:00:00.000Z');

export type EventOverrides = Partial<Omit<RecordedEvent, 'type' | 'data' | 'metadata'>> & {
  metadata?: Partial<EventMetadata>;
};

/** What each event built by `recorded` set itself; the rest is the log's to number. */
const explicit = new WeakMap<RecordedEvent, EventOverrides>();

function numbered<T extends string, D>(
  type: T,
  data: D,
  position: number,
  revision: number,
  { metadata, ...envelope }: EventOverrides,
): RecordedEvent<T, D> {
  return {
    id: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
    stream: 'test',
    revision,
    position,
    ...envelope,
    type,
    data,
    metadata: {
      schemaVersion: 1,
      occurredAt: new Date(T0 + position * 1000).toISOString(),
      actor: { source: 'system' },
      correlationId: `correlation-${position}`,
      causationId: null,
      ...metadata,
    },
  };
}

/**
 * An event to give a scenario. Its place in the log is the scenario's (see `inLog`), so the same event
 * can open several scenarios; alone it stands at position 1. The actor is the system unless
 * `metadata.actor` says otherwise; the stream is `test` unless given.
 */
export function recorded<T extends string, D>(
  type: T,
  data: D,
  overrides: EventOverrides = {},
): RecordedEvent<T, D> {
  const event = numbered(type, data, overrides.position ?? 1, overrides.revision ?? 0, overrides);
  explicit.set(event, overrides);
  return event;
}

/**
 * The events as a log records them, in the order given: positions 1, 2, … (after the last one set
 * explicitly), revisions from 0 within each stream, and the id (a UUID, as the audit log wants),
 * correlation id and time derived from the position, except what `recorded` was told. Events not made
 * by `recorded` are taken as they are. Expectations can then be written from the numbered events.
 */
export function inLog(events: readonly RecordedEvent[]): RecordedEvent[] {
  let position = 0;
  const revisions = new Map<string, number>();
  return events.map((event) => {
    const overrides = explicit.get(event);
    const stream = overrides?.stream ?? event.stream;
    const next = overrides
      ? numbered(
          event.type,
          event.data,
          overrides.position ?? position + 1,
          overrides.revision ?? (revisions.get(stream) ?? -1) + 1,
          overrides,
        )
      : event;
    position = next.position;
    revisions.set(stream, next.revision);
    return next;
  });
}

/** `recorded` checked against an event union: `const event = recorderOf<SpaceEvent>()`. */
export function recorderOf<E extends DomainEvent>() {
  return <T extends E['type']>(type: T, data: Extract<E, { type: T }>['data'], overrides?: EventOverrides) =>
    recorded(type, data, overrides);
}

/** Read models in memory, stored as JSON strings like SQLite stores them: every read is a fresh copy. */
class MemoryViews implements Pick<ReadStore, 'get' | 'find' | 'commit' | 'all'> {
  private readonly docs = new Map<string, Map<string, string>>();

  async get<T extends Doc = Doc>(collection: CollectionName<T>, id: string): Promise<T | null> {
    const json = this.docs.get(collection)?.get(id);
    return json === undefined ? null : (JSON.parse(json) as T);
  }

  /** Equality on top-level fields, `null` matching a missing field; only `where`, `idPrefix` and `limit`, in id order. */
  async find<T extends Doc = Doc>(collection: CollectionName<T>, query: FindQuery): Promise<Page<T>> {
    const where: Record<string, Scalar> = query.where ?? {};
    const { idPrefix = '' } = query;
    const matching = (await this.all(collection)).filter(
      (doc) =>
        doc.id.startsWith(idPrefix) &&
        Object.entries(where).every(([field, value]) => (doc[field] ?? null) === value),
    );
    return { items: matching.slice(0, query.limit), count: matching.length };
  }

  async commit(writes: Write[]): Promise<void> {
    for (const { collection, id, doc } of writes) {
      const docs = this.docs.get(collection) ?? new Map<string, string>();
      this.docs.set(collection, docs);
      if (doc === null) docs.delete(id);
      else docs.set(id, JSON.stringify({ ...doc, id }));
    }
  }

  async all<T extends Doc = Doc>(collection: CollectionName<T>): Promise<T[]> {
    return [...(this.docs.get(collection) ?? new Map<string, string>())]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, json]) => JSON.parse(json) as T);
  }

  /** Every document of every collection, `_pos` included: what replays and rebuilds must reproduce. */
  async dump(): Promise<Record<string, Doc[]>> {
    const names = [...this.docs.keys()].filter((name) => (this.docs.get(name)?.size ?? 0) > 0).sort();
    return Object.fromEntries(await Promise.all(names.map(async (name) => [name, await this.all(name)])));
  }

  copy(): MemoryViews {
    const copy = new MemoryViews();
    for (const [name, docs] of this.docs) copy.docs.set(name, new Map(docs));
    return copy;
  }
}

/**
 * Routes one event as the projector does (upcast first, only the types the projection handles), through
 * a context that refuses writes outside `projection.collections`: a one-projection rebuild replaces
 * exactly those, so a write elsewhere would survive it stale.
 */
async function applyOne(
  projection: Projection,
  raw: RecordedEvent,
  ctx: ViewContext,
  log: LogReads,
): Promise<void> {
  const event = upcast(raw);
  if (!projection.handles.includes(event.type)) return;
  const confine = (collection: string) => {
    if (!projection.collections.includes(collection))
      throw new Error(
        `projection ${projection.name} writes ${collection}, which is not among its collections ` +
          `(${projection.collections.join(', ')}), applying ${event.type} at ${event.position}`,
      );
  };
  await projection.apply(event, {
    get: (collection, id) => ctx.get(collection, id),
    find: (collection, where) => ctx.find(collection, where),
    put: async (collection, doc) => {
      confine(collection);
      await ctx.put(collection, doc);
    },
    delete: async (collection, id) => {
      confine(collection);
      await ctx.delete(collection, id);
    },
    log,
  });
}

/** The scenario's events as the log a projection may read (by stream and revision). */
function logOf(events: readonly RecordedEvent[]): LogReads {
  return {
    eventAt: async (stream, revision) => events.find((e) => e.stream === stream && e.revision === revision),
  };
}

/** The writes the live projector would commit for `event` applied alone over `views`. */
async function writesOf(
  projection: Projection,
  event: RecordedEvent,
  views: MemoryViews,
  log: LogReads,
): Promise<Write[]> {
  const uow = new UnitOfWork(views);
  await applyOne(projection, event, uow.forEvent(event), log);
  return uow.writes();
}

/** The live path: the projector keeping up with the log, one commit per `batchSize` events. */
async function applyLive(
  projection: Projection,
  events: readonly RecordedEvent[],
  views: MemoryViews,
  log: LogReads,
  batchSize = 1,
): Promise<MemoryViews> {
  for (let i = 0; i < events.length; i += batchSize) {
    const uow = new UnitOfWork(views);
    for (const event of events.slice(i, i + batchSize))
      await applyOne(projection, event, uow.forEvent(event), log);
    await views.commit(uow.writes());
  }
  return views;
}

/** The rebuild path: a fresh generation filled through the `RebuildBuffer` (no replay guard, documents held). */
async function applyRebuild(
  projection: Projection,
  events: readonly RecordedEvent[],
  log: LogReads,
  batchSize: number,
  capacity?: number,
): Promise<MemoryViews> {
  const views = new MemoryViews();
  // The buffer asks the store for get, find and commit only.
  const buffer = new RebuildBuffer(views as unknown as ReadStore, capacity);
  buffer.startEmpty(projection.collections);
  const send = async (writes: Write[]) => {
    await views.commit(writes);
    buffer.landed(writes);
  };
  for (let i = 0; i < events.length; i += batchSize) {
    for (const event of events.slice(i, i + batchSize))
      await applyOne(projection, event, buffer.at(event.position), log);
    await send(buffer.endBatch());
  }
  for (const part of buffer.drain()) await send(part);
  return views;
}

/** `toStrictEqual`, with the case that failed named above the diff. */
function sameViews(actual: Record<string, Doc[]>, expected: Record<string, Doc[]>, context: string): void {
  try {
    expect(actual).toStrictEqual(expected);
  } catch (error) {
    if (error instanceof Error)
      error.message = `${context} (received: these views; expected: the live ones)\n\n${error.message}`;
    throw error;
  }
}

const byId = (a: Doc, b: Doc) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function withoutPos<T extends Doc>(doc: T): T {
  const { _pos: _, ...rest } = doc;
  return rest as T;
}

export interface ProjectionScenario {
  /** The events given, as the log numbered them (see `inLog`). */
  events: readonly RecordedEvent[];
  /** The documents of `collection` after the events, by id; `_pos` only with `withPos`. */
  documents<T extends Doc = Doc>(
    collection: CollectionName<T>,
    options?: { withPos?: boolean },
  ): Promise<T[]>;
  /** Asserts `collection` holds exactly these documents (in any order), compared strictly. */
  thenDocuments<T extends Doc = Doc>(
    collection: CollectionName<T>,
    expected: T[],
    options?: { withPos?: boolean },
  ): Promise<void>;
  /**
   * Asserts that re-applying the events, with the same positions, from any earlier checkpoint leaves
   * every document as it was, `_pos` included: over the final documents (a crash between a commit's
   * writes and its checkpoint, or a copy ahead of its checkpoint), and over the documents as they were
   * when the crash hit each event's commit after any prefix of its writes (MongoDB commits in order,
   * not atomically).
   */
  thenReplayChangesNothing(): Promise<void>;
  /**
   * Asserts that rebuilding from scratch through the `RebuildBuffer` (in one batch, and one event a
   * batch with room for a single held document, so documents are written out and read back) gives the
   * very documents the live path gave, `_pos` included.
   */
  thenRebuildMatches(): Promise<void>;
}

/**
 * `givenProjection(p).given(...events).thenDocuments(collection, docs)`. The events are numbered in the
 * order given (`inLog`). The live path applies one event per commit unless `batchSize` says otherwise;
 * events of types `p` does not handle are skipped, as the projector skips them, so a test may give a
 * whole log.
 */
export function givenProjection(projection: Projection, options: { batchSize?: number } = {}) {
  return {
    given(...given: RecordedEvent[]): ProjectionScenario {
      const events = inLog(given);
      const log = logOf(events);
      events.forEach((event, i) => {
        // The replay guard would drop a write from an event at or before the document's position.
        if (i > 0 && event.position <= events[i - 1].position)
          throw new Error(
            `events out of log order: position ${event.position} after ${events[i - 1].position}`,
          );
      });
      let live: Promise<MemoryViews> | undefined;
      const views = () => {
        live ??= applyLive(projection, events, new MemoryViews(), log, options.batchSize);
        return live;
      };
      const scenario: ProjectionScenario = {
        events,

        async documents<T extends Doc>(collection: CollectionName<T>, { withPos = false } = {}) {
          const docs = await (await views()).all(collection);
          return withPos ? docs : docs.map(withoutPos);
        },

        async thenDocuments(collection, expected, { withPos = false } = {}) {
          const wanted = (withPos ? expected : expected.map(withoutPos)).slice().sort(byId);
          expect(await scenario.documents(collection, { withPos })).toStrictEqual(wanted);
        },

        async thenReplayChangesNothing() {
          const final = await (await views()).dump();
          const replay = async (from: number, landed: MemoryViews) =>
            (await applyLive(projection, events.slice(from), landed, log)).dump();
          const before = new MemoryViews();
          for (let k = 0; k < events.length; k++) {
            const at = `${events[k].type} at position ${events[k].position}`;
            sameViews(
              await replay(k, (await views()).copy()),
              final,
              `replayed from ${at} over the final views`,
            );
            const writes = await writesOf(projection, events[k], before, log);
            for (let landed = 0; landed <= writes.length; landed++) {
              const crashed = before.copy();
              await crashed.commit(writes.slice(0, landed));
              const context = `replayed from ${at} after a crash with ${landed} of its ${writes.length} writes stored`;
              sameViews(await replay(k, crashed), final, context);
            }
            await before.commit(writes);
          }
        },

        async thenRebuildMatches() {
          const final = await (await views()).dump();
          const variants = [
            { batchSize: Math.max(events.length, 1), capacity: undefined },
            { batchSize: 1, capacity: 1 },
          ];
          for (const { batchSize, capacity } of variants) {
            const rebuilt = await (await applyRebuild(projection, events, log, batchSize, capacity)).dump();
            const context = `rebuilt ${batchSize} events a batch, holding ${capacity ?? 'the default number of'} documents`;
            sameViews(rebuilt, final, context);
          }
        },
      };
      return scenario;
    },
  };
}
