import { invalid } from '../domain/decider';
import {
  EVENT_STORE,
  type EventStore,
  type RecordedEvent,
  type Subscription,
} from '../eventstore/event-store.port';
import { upcast } from '../eventstore/upcasters';
import {
  CheckpointConflictError,
  type CheckpointWrite,
  documentKey,
  READ_STORE,
  type ReadStore,
  type Write,
} from '../readstore/read-store.port';
import { DeferredIndexes } from './deferred-indexes';
import { PositionWaits } from './position-waits';
import {
  type LogReads,
  logReadsOf,
  type Projection,
  type ProjectionContext,
  type ViewContext,
} from './projection';
import { RebuildBuffer } from './rebuild-buffer';
import { type Spill, UnitOfWork } from './unit-of-work';
import {
  type ChangedCollections,
  ChangeListeners,
  collectionsByType,
  collectionsTouched,
  type ViewChanges,
} from './view-changes';

export const PROJECTIONS = Symbol('PROJECTIONS');
export const CHECKPOINT = 'projector';
/**
 * Events per read and commit of a rebuild: small enough that a batch's events and documents die young (in
 * the young generation, which a larger batch outgrows: B5 took 29 s with batches of 20,000, 25 s with 2,000).
 */
const REBUILD_BATCH = 2_000;
/**
 * A rebuild's commits sent and not yet landed, at most: with two, a store whose commits take round trips
 * (MongoDB) has the next batch at hand when it finishes one, and the rebuild goes on projecting meanwhile.
 * The embedded store commits at once.
 */
const COMMITS_IN_FLIGHT = 2;
/** Checkpoint conflicts in a row on one batch before it fails (the subscription then retries it). */
const MAX_CONFLICTS = 5;
/** Pause before trying to promote again while the live views are ahead of the rebuilt ones. */
const PROMOTE_RETRY_MS = 20;
/** How often a running projector looks for a generation made live by another process (a `rebuild`). */
const SWITCH_CHECK_MS = 500;

export interface RebuildOptions {
  /** Rebuilds this projection (with those sharing a collection with it) and copies the other views. */
  projection?: string;
  /** Events per read and commit; smaller batches keep a server in the same process more responsive. */
  batchSize?: number;
}

/** Position reached, head of the log when the rebuild started (or the position, if past it), events applied. */
export type RebuildProgress = (position: number, head: number, applied: number) => void;

/** What one commit to the live views changed, as the projector publishes it. */
export interface ProjectorOptions {
  /** What a live batch's writes may weigh before they are written out ahead of its end (`Spill`). */
  spillWeight?: number;
}

/**
 * A live batch's writes held at most (`weightOf`) before they are written out: far above what a batch
 * of ordinary writes weighs (kilobytes), well below what one large merge makes (1,800 pages: 31 MB).
 */
const SPILL_WEIGHT = 8 * 1024 * 1024;

export interface CommittedViews {
  /** The log position the views include now. */
  position: number;
  changed: ChangedCollections;
  /** The documents written (none when `changed` is `all`: a switch of generation). */
  writes: readonly Write[];
}

/**
 * What a process serving the views needs of the projector that keeps them: how far they are, a wait
 * for a write to reach them, and notice of their changes. The projector itself, or a stand-in for one
 * running on another thread (`StorageThread`).
 */
export interface LiveProjector extends ViewChanges {
  start(): Promise<void>;
  stop(): Promise<void>;
  checkpoint(): number;
  /** What stopped the projector's subscription for good (`Subscription.failure`); undefined while it runs. */
  failure(): Error | undefined;
  waitFor(position: number, timeoutMs?: number): Promise<void>;
}

export const LIVE_PROJECTOR = Symbol('LIVE_PROJECTOR');

/** The projections an event goes to. */
type Route = (event: RecordedEvent) => readonly Projection[];

function byType(projections: readonly Projection[]): Map<string, Projection[]> {
  const map = new Map<string, Projection[]>();
  for (const p of projections) {
    for (const type of p.handles) map.set(type, [...(map.get(type) ?? []), p]);
  }
  return map;
}

/** A projection that fails loudly when it writes a collection it does not declare. */
function confined(p: Projection): Projection {
  const check = (collection: string) => {
    if (!p.collections.includes(collection))
      throw new Error(`projection ${p.name} writes ${collection}, which is not among its collections`);
  };
  const guard = (ctx: ProjectionContext): ProjectionContext => ({
    ...ctx,
    put: async (collection, doc) => {
      check(collection);
      await ctx.put(collection, doc);
    },
    delete: async (collection, id) => {
      check(collection);
      await ctx.delete(collection, id);
    },
  });
  return { ...p, apply: (event, ctx) => p.apply(event, guard(ctx)) };
}

/**
 * Applies events, upcast, to the projections `route` gives, each through the views `contextFor` gives
 * and the log.
 */
async function applyEvents(
  events: RecordedEvent[],
  route: Route,
  contextFor: (event: RecordedEvent) => ViewContext,
  log: LogReads,
): Promise<void> {
  for (const raw of events) {
    const event = upcast(raw);
    for (const p of route(event)) await p.apply(event, { ...contextFor(event), log });
  }
}

/** Applies events through one unit of work and returns its writes (those it did not spill). */
async function project(
  reads: Pick<ReadStore, 'get' | 'find'>,
  log: LogReads,
  events: RecordedEvent[],
  route: Route,
  spill?: Spill,
): Promise<Write[]> {
  const uow = new UnitOfWork(reads, spill);
  await applyEvents(events, route, (event) => uow.forEvent(event), log);
  return uow.writes();
}

/**
 * Follows the log from its checkpoint and applies every projection, one read-store commit per batch
 * with the checkpoint in the same commit. The commit is a compare-and-set on the checkpoint: when a
 * rebuild has switched the views to a new generation (here or in another process), it fails, and the
 * projector continues from the new generation's checkpoint instead of losing or doubling events.
 */
export class Projector implements LiveProjector {
  private position = 0;
  private readonly changes = new ChangeListeners();
  private readonly commits: ((committed: CommittedViews) => void)[] = [];
  private readonly collectionsByType: Map<string, Set<string>>;
  private subscription?: Subscription;
  private readonly waits = new PositionWaits(() => this.position);
  private readonly byType: Map<string, Projection[]>;
  private readonly log: LogReads;
  /** Serializes live batches with the switch-over that ends a rebuild in this process. */
  private exclusive: Promise<unknown> = Promise.resolve();
  /** The live generation of the views as this projector last knew it. */
  private generation?: number;
  private switchWatch?: NodeJS.Timeout;

  static readonly tokens = { EVENT_STORE, READ_STORE, PROJECTIONS };

  constructor(
    private readonly events: EventStore,
    private readonly views: ReadStore,
    private readonly projections: Projection[],
    private readonly options: ProjectorOptions = {},
  ) {
    this.byType = byType(projections);
    this.collectionsByType = collectionsByType(projections);
    this.log = logReadsOf(events);
  }

  /** Called after each commit to the live views, before a wait for its position resolves. */
  onChange(listener: (changed: ChangedCollections) => void): void {
    this.changes.add(listener);
  }

  /** Called after each commit to the live views and its announcement, with what it wrote. */
  onCommit(listener: (committed: CommittedViews) => void): void {
    this.commits.push(listener);
  }

  async prepare(): Promise<void> {
    await this.views.ensureIndexes(this.projections.flatMap((p) => p.indexes));
    this.position = await this.views.getCheckpoint(CHECKPOINT);
  }

  async start(): Promise<void> {
    await this.prepare();
    await this.backfill();
    this.generation = await this.views.generation();
    this.subscription = this.events.subscribeAll(this.position, (batch) => this.apply(batch));
    // Nothing else tells this process of another's promote while no event arrives to conflict on.
    this.switchWatch = setInterval(() => void this.noticeSwitch(), SWITCH_CHECK_MS).unref();
  }

  /** Builds from the log each projection that has never run on views that already hold the log (`backfillWhen`). */
  private async backfill(): Promise<void> {
    if (this.position === 0) return;
    for (const projection of this.projections) {
      const when = projection.backfillWhen;
      if (!when) continue;
      const holds = async (collection: string) =>
        (await this.views.find(collection, { limit: 1 })).items.length > 0;
      if (await holds(when.own)) continue;
      let witnessed = false;
      for (const witness of when.witnesses) witnessed ||= await holds(witness);
      if (!witnessed) continue;
      await this.rebuild(undefined, { projection: projection.name });
      this.position = await this.views.getCheckpoint(CHECKPOINT);
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.switchWatch);
    this.switchWatch = undefined;
    await this.subscription?.close();
    this.subscription = undefined;
  }

  checkpoint(): number {
    return this.position;
  }

  failure(): Error | undefined {
    return this.subscription?.failure();
  }

  active(): boolean {
    return this.subscription !== undefined;
  }

  covers(position: number): boolean {
    return this.position >= position;
  }

  /** Resolves once views include the event at `position`; rejects after `timeoutMs`. */
  waitFor(position: number, timeoutMs = 5000): Promise<void> {
    return this.waits.wait(position, timeoutMs);
  }

  apply(batch: RecordedEvent[]): Promise<void> {
    return this.serialized(() => this.applyLive(batch));
  }

  /**
   * The projection named and every projection sharing a collection with it, transitively: they write
   * the same documents, so they are replayed together. Every projection without a name.
   */
  rebuildScope(projection?: string): Projection[] {
    if (projection === undefined) return this.projections;
    const named = this.projections.find((p) => p.name === projection);
    if (!named) {
      const known = this.projections.map((p) => p.name).join(', ');
      throw invalid(`unknown projection ${projection} (known: ${known})`);
    }
    const selected = new Set([named]);
    const collections = new Set(named.collections);
    for (let grown = true; grown; ) {
      grown = false;
      for (const p of this.projections) {
        if (selected.has(p) || !p.collections.some((c) => collections.has(c))) continue;
        selected.add(p);
        for (const c of p.collections) collections.add(c);
        grown = true;
      }
    }
    return this.projections.filter((p) => selected.has(p));
  }

  /**
   * Replays the log into a new read-store generation while the live one keeps answering, then makes
   * it live once it has caught up with the live views; returns the number of events replayed.
   *
   * With `projection`, the new generation starts as a copy of the live documents of every collection
   * outside the scope (`rebuildScope`), taken with the live checkpoint C; events up to C go to the
   * projections in scope only (their collections start empty), later ones to every projection, and
   * the per-document replay guard skips what the copy already holds. The limit: a projection in scope
   * that reads a collection outside it sees that collection as of C, not as of each event it replays.
   */
  async rebuild(onProgress?: RebuildProgress, options: RebuildOptions = {}): Promise<number> {
    const scope = this.rebuildScope(options.projection);
    const generation = await this.views.createGeneration();
    const target = this.views.forRebuild(generation);
    try {
      return await this.fill(generation, target, scope, onProgress, options);
    } finally {
      await target.close();
    }
  }

  private async fill(
    generation: number,
    target: ReadStore,
    scope: Projection[],
    onProgress: RebuildProgress | undefined,
    options: RebuildOptions,
  ): Promise<number> {
    const indexes = new DeferredIndexes(
      target,
      this.projections.flatMap((p) => p.indexes),
    );
    await indexes.prepare();
    let route: Route = (event) => this.byType.get(event.type) ?? [];
    if (options.projection !== undefined) {
      const rebuilt = new Set(scope.flatMap((p) => p.collections));
      // Declared collections too: one may get its first document between listing and copying.
      const known = new Set([
        ...this.projections.flatMap((p) => p.collections),
        ...(await this.views.collections()),
      ]);
      const copied = [...known].filter((c) => !rebuilt.has(c));
      const copiedAt = await this.views.copyCollections(generation, copied, CHECKPOINT);
      const inScope = byType(scope.map(confined));
      const every = route;
      route = (event) => (event.position <= copiedAt ? (inScope.get(event.type) ?? []) : every(event));
    }
    const head = await this.events.headPosition();
    const batchSize = options.batchSize ?? REBUILD_BATCH;
    const buffer = new RebuildBuffer(
      target,
      undefined,
      (collection) => indexes.build(collection),
      () => landed(),
    );
    // The new generation holds nothing of the collections replayed (a one-projection rebuild copies the others).
    buffer.startEmpty(scope.flatMap((p) => p.collections));
    // Batches' commits may run while the next batches are applied (a store with round trips), up to
    // COMMITS_IN_FLIGHT of them. Commits in flight run concurrently on such a store, so one that writes
    // a document another in flight writes waits for it to land first: the later write must win.
    const committing: { landing: Promise<unknown>; keys: Set<string> }[] = [];
    const landedUpTo = async (inFlight: number) => {
      while (committing.length > inFlight) {
        const failure = await committing.shift()?.landing;
        if (failure) throw failure;
      }
    };
    const landed = () => landedUpTo(0);
    const send = async (writes: Write[], checkpoint?: CheckpointWrite) => {
      await landedUpTo(COMMITS_IN_FLIGHT - 1);
      const keys = new Set(writes.map((w) => documentKey(w.collection, w.id)));
      if (committing.some((c) => [...keys].some((key) => c.keys.has(key)))) await landed();
      committing.push({
        keys,
        landing: target.commit(writes, checkpoint).then(
          () => buffer.landed(writes),
          (error: unknown) => error ?? new Error('commit failed'),
        ),
      });
    };
    let position = 0;
    let applied = 0;
    for (;;) {
      const batch = await this.events.readAll(position, batchSize);
      if (batch.length > 0) {
        position = batch[batch.length - 1].position;
        await applyEvents(batch, route, (event) => buffer.at(event.position), this.log);
        await send(buffer.endBatch());
        applied += batch.length;
        onProgress?.(position, Math.max(head, position), applied);
        // The embedded stores answer without real I/O: yield, or a server in this process stalls.
        await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      // Caught up: the checkpoint goes in with the last held documents, the generation is complete only then.
      const checkpoint = { name: CHECKPOINT, position };
      const parts = buffer.drain(batchSize);
      // Collections the held documents do not go to are complete: their indexes are built meanwhile.
      const held = new Set(parts.flatMap((part) => part.map((write) => write.collection)));
      await landed();
      await Promise.all([
        indexes.build((collection) => !held.has(collection)),
        (async () => {
          for (const [i, part] of parts.entries())
            await send(part, i === parts.length - 1 ? checkpoint : undefined);
          if (parts.length === 0) await send([], checkpoint);
          await landed();
        })(),
      ]);
      await indexes.build();
      if (await this.switchOver(generation, position)) return applied;
      await new Promise((resolve) => setTimeout(resolve, PROMOTE_RETRY_MS));
    }
  }

  /**
   * Promotes the rebuilt generation unless the live views are past it (events appended since its last
   * batch), in which case the rebuild reads on. Holding the live batches back here means the projector
   * of this process has nothing in flight, so it continues at the rebuilt checkpoint without a conflict.
   */
  private switchOver(generation: number, position: number): Promise<boolean> {
    return this.serialized(async () => {
      if (!(await this.views.promote(generation, { checkpoint: CHECKPOINT }))) return false;
      this.generation = generation;
      this.publish({ position: Math.max(position, this.position), changed: 'all', writes: [] });
      return true;
    });
  }

  private async applyLive(batch: RecordedEvent[]): Promise<void> {
    for (let conflicts = 0; ; conflicts++) {
      try {
        const fresh = batch.filter((e) => e.position > this.position);
        if (fresh.length > 0) await this.applyFresh(fresh);
        return;
      } catch (error) {
        if (!(error instanceof CheckpointConflictError) || conflicts >= MAX_CONFLICTS) throw error;
        await this.resync(batch[0].position);
      }
    }
  }

  private async applyFresh(events: RecordedEvent[]): Promise<void> {
    const last = events[events.length - 1].position;
    const route: Route = (event) => this.byType.get(event.type) ?? [];
    const writes = await project(this.views, this.log, events, route, {
      maxWeight: this.options.spillWeight ?? SPILL_WEIGHT,
      // Written ahead of the checkpoint, announced as any commit: caches must not keep what they replace.
      write: async (spilled) => {
        await this.views.commit(spilled);
        const changed = new Set(spilled.map((write) => write.collection));
        this.publish({ position: this.position, changed, writes: spilled });
      },
    });
    const checkpoint = {
      name: CHECKPOINT,
      position: last,
      expected: this.position,
      generation: this.generation,
    };
    await this.views.commit(writes, checkpoint);
    this.publish({ position: last, changed: collectionsTouched(events, this.collectionsByType), writes });
  }

  /** Announces a commit to the views, tells the commit listeners, then lets waits for it resolve. */
  private publish(committed: CommittedViews): void {
    this.changes.announce(committed.changed);
    for (const listener of this.commits) listener(committed);
    if (committed.position > this.position) this.advance(committed.position);
  }

  /**
   * The views' checkpoint is not where this projector left it: a rebuild switched them to a new
   * generation, or another projector wrote them. Continues from their checkpoint, re-applying from the
   * log what they lack before `before` (the batch in hand brings the rest).
   */
  private async resync(before: number): Promise<void> {
    this.generation = await this.views.generation();
    this.position = await this.views.getCheckpoint(CHECKPOINT);
    // Someone else changed the views: what, is not known here.
    this.publish({ position: this.position, changed: 'all', writes: [] });
    for (;;) {
      const missing = (await this.events.readAll(this.position, REBUILD_BATCH)).filter(
        (e) => e.position < before,
      );
      if (missing.length === 0) break;
      await this.applyFresh(missing);
    }
    this.waits.notify();
  }

  /** Continues on the views another process made live, once seen (see `resync`). */
  private noticeSwitch(): Promise<void> {
    return this.serialized(async () => {
      if (this.subscription === undefined || (await this.views.generation()) === this.generation) return;
      await this.resync(this.position + 1);
    }).catch((error) => {
      process.stderr.write(`projector: looking for a promoted generation failed: ${String(error)}\n`);
    });
  }

  private advance(position: number): void {
    this.position = position;
    this.waits.notify();
  }

  private serialized<T>(task: () => Promise<T>): Promise<T> {
    const run = this.exclusive.then(task, task);
    this.exclusive = run.catch(() => undefined);
    return run;
  }
}
