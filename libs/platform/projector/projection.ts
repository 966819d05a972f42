import type { DomainEvent } from '../domain/decider';
import type { EventStore, RecordedEvent } from '../eventstore/event-store.port';
import type { CollectionName, Doc, IndexSpec, Scalar } from '../readstore/read-store.port';

/** Documents a projection's `find` answers at most: it serves small fan-outs, not scans. */
export const FAN_OUT_LIMIT = 10_000;

/**
 * What a projection may read of the log itself: the event at a stream's revision, as stored (not upcast).
 * For views that point into the log rather than copy it (content objects are stored once, in their event).
 */
export interface LogReads {
  eventAt(stream: string, revision: number): Promise<RecordedEvent | undefined>;
}

/** The log as `LogReads` sees it: one event of a stream read alone. */
export const logReadsOf = (events: Pick<EventStore, 'readStream'>): LogReads => ({
  eventAt: async (stream, revision) => (await events.readStream(stream, revision, 1))[0],
});

/** What a projection sees of the views while applying one event: reads include the batch's earlier writes. */
export interface ViewContext {
  get<T extends Doc>(collection: CollectionName<T>, id: string): Promise<T | null>;
  /** Every document matching the equality filter (projections use it for small fan-outs). */
  find<T extends Doc>(collection: CollectionName<T>, where: Record<string, Scalar>): Promise<T[]>;
  /** Hands `doc` over: the context may keep it as it is (and stamp it), so build a new one for each write. */
  put<T extends Doc>(collection: CollectionName<T>, doc: T, options?: WriteOptions): Promise<void>;
  delete(collection: string, id: string, options?: WriteOptions): Promise<void>;
}

/** What a projection sees while applying one event: the views, and the log for what they point to. */
export interface ProjectionContext extends ViewContext {
  readonly log: LogReads;
}

export interface WriteOptions {
  /**
   * The projection guards replays of this write itself (it writes the same whenever its event is applied
   * again, and never over a later event's): the per-document guard, a read of the stored version, is
   * left out. For the many writes of one event (search postings), that read costs more than the write.
   */
  selfGuarded?: true;
}

/**
 * A read model: a pure mapping from events to documents. It never calls the write side,
 * and the projector makes applying an event twice a no-op.
 */
export interface Projection {
  name: string;
  /** Every read-model collection it writes; a rebuild of this projection alone replaces exactly these. */
  collections: readonly string[];
  indexes: IndexSpec[];
  handles: readonly string[];
  apply(event: RecordedEvent, ctx: ProjectionContext): Promise<void>;
  /**
   * For a projection added after installs have views: `own` (one of its collections) is empty exactly
   * when it has never run while one of `witnesses` (other projections') has documents; the projector then
   * builds it from the log before following the log (the projector has one checkpoint, so a new
   * projection would otherwise start empty on an existing install).
   */
  backfillWhen?: { own: string; witnesses: readonly string[] };
}

/** `true` when `T` is `any`. */
export type IsAny<T> = 0 extends 1 & T ? true : false;

/** The handler of the events of type `T` of the union `E`: the event carries the data of its type. */
export type ProjectionHandler<E extends DomainEvent, T extends E['type'] = E['type']> = (
  event: RecordedEvent<T, Extract<E, { type: T }>['data']>,
  ctx: ProjectionContext,
) => Promise<void>;

/** Handlers of some of the events of the union `E`, by event type. */
export type ProjectionHandlers<E extends DomainEvent> = { [T in E['type']]?: ProjectionHandler<E, T> };

/** A type no handler map has, naming why `projection` refuses the one it is given. */
type Refused<Reason extends string> = { readonly [K in Reason]: never };

/**
 * The handlers `projection` takes for the union `E`: none when an event's data is `any` (or `E` is),
 * nor when the union is not named.
 */
export type HandlersOf<E extends DomainEvent> =
  IsAny<E['data']> extends true
    ? Refused<'an event of the union has data of type any'>
    : [E] extends [never]
      ? Refused<'name the event union: projection<ItsEvents>(...)'>
      : ProjectionHandlers<E>;

/**
 * Declares a projection over the event union `E` (`projection<SpaceEvent | CollectionEvent>(...)`, the
 * unions the deciders export): each handler gets the data of its event type, a handler of a type not in
 * `E` does not compile, nor does a union whose data is `any`. The event types it handles are the keys of
 * `handlers`. `collections` defaults to those its indexes name; a projection that writes others must
 * list them all.
 */
export function projection<E extends DomainEvent = never>(
  name: string,
  indexes: IndexSpec[],
  handlers: HandlersOf<E>,
  collections: readonly string[] = [...new Set(indexes.map((index) => index.collection))],
): Projection {
  // Routed by type, so each handler only ever gets events of its own type.
  const byType = handlers as Record<string, (event: RecordedEvent, ctx: ProjectionContext) => Promise<void>>;
  return {
    name,
    collections,
    indexes,
    handles: Object.keys(byType),
    apply: (event, ctx) => byType[event.type](event, ctx),
  };
}

/** A projection's handler of the events `V`: what `documents(...).put`, `.update` and `.delete` make. */
export type HandlerOf<V extends RecordedEvent> = (event: V, ctx: ProjectionContext) => Promise<void>;

/**
 * The common writes to the documents of one collection, typed by it: handlers that put a document built
 * from the event, update the document the event names, or delete it, and `change` for a handler's own
 * writes. The collection comes first, alone, so that its document type is the one every document built
 * or changed is checked against (and its literal fields keep their type).
 */
export function documents<T extends Doc>(collection: CollectionName<T>) {
  /** Replaces the document `id` by what `edit` makes of it (a new document); nothing when there is none. */
  const change = async (ctx: ViewContext, id: string, edit: (doc: T) => T): Promise<void> => {
    const doc = await ctx.get(collection, id);
    if (doc) await ctx.put(collection, edit(doc));
  };
  return {
    change,
    /** A handler: puts the document `build` makes of the event. */
    put:
      <V extends RecordedEvent>(build: (event: V) => T): HandlerOf<V> =>
      async (event, ctx) => {
        await ctx.put(collection, build(event));
      },
    /** A handler: replaces the document the event names (`key`) by what `update` makes of it; nothing when there is none. */
    update:
      <V extends RecordedEvent>(key: (event: V) => string, update: (doc: T, event: V) => T): HandlerOf<V> =>
      (event, ctx) =>
        change(ctx, key(event), (doc) => update(doc, event)),
    /** A handler: deletes the document the event names (`key`). */
    delete:
      <V extends RecordedEvent>(key: (event: V) => string): HandlerOf<V> =>
      async (event, ctx) => {
        await ctx.delete(collection, key(event));
      },
  };
}
