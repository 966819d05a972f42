import { Inject, Injectable, Optional } from '@nestjs/common';
import { CLOCK, type Clock } from '../clock/clock';
import type { Aggregate } from '../domain/aggregate';
import { type Decider, DomainError, type DomainEvent } from '../domain/decider';
import { newEventId } from '../eventstore/event-id';
import {
  type AppendResult,
  EVENT_STORE,
  type EventStore,
  MAX_APPEND_BYTES,
  type NewEvent,
  type RecordedEvent,
  type StreamAppend,
  WrongExpectedRevisionError,
} from '../eventstore/event-store.port';
import { upcast } from '../eventstore/upcasters';
import { Observability } from '../observability/observability';
import type { CommandContext, WriteResult } from './command-context';

export const SCHEMA_VERSION = 1;
/** Appends refused for a concurrent write before the caller is answered 409. */
export const MAX_ATTEMPTS = 5;
/** Folded states kept per stream, so a write reads only the events since the last one it saw. */
const STATE_CACHE_SIZE = 10_000;
/** Commands waiting on one stream decided together and appended at once, at most. */
export const MAX_TOGETHER = 32;

interface Folded {
  decider: unknown;
  state: unknown;
  revision: number;
  position: number;
}

interface Loaded<S> {
  state: S;
  revision: number;
  position: number;
}

export class PreconditionFailedError extends Error {}

/**
 * Events another stream must hold before the command's own events name them (a change's content objects):
 * appended with them, first, by `appendInOrder` (so all or nothing on the embedded log), with `any` as
 * their expected revision, in as many appends as keep each under `MAX_APPEND_BYTES` (its events must
 * then bear being stored without the others: content objects nothing points to yet). Nothing of it is
 * appended when the command is refused or changes nothing.
 */
export interface Prerequisite {
  stream: string;
  events: DomainEvent[];
  /**
   * What they store, by key, for the commands decided after this one in the same append to read before
   * it lands (a change's new objects by hash): see `ComputedCommand`'s `earlier`.
   */
  staged?: ReadonlyMap<string, unknown>;
  /** Called once they are appended, before any command decided after that append runs. */
  appended?: () => void;
}

/**
 * A command, or how to compute it from the state it will be decided on: a command whose content needs
 * reading outside the stream (a merge reads stored objects) is computed again on each attempt's state,
 * so a retry after a concurrent write never applies a result computed on what that write replaced. The
 * computation may name prerequisites, which only that attempt appends. `earlier` holds the prerequisites
 * of the commands decided before it into the same append, not yet stored: what it names of them lands
 * with it or not at all, and nothing outside that append ever sees them.
 */
export type CommandOf<C, S> = C | ComputedCommand<C, S>;
export type ComputedCommand<C, S> = (
  state: S,
  prerequisite: (events: Prerequisite) => void,
  earlier: readonly Prerequisite[],
) => Promise<C>;

/** What a command ends in: where it landed, the state it left and the events it appended. */
export type Outcome<S, E> = WriteResult & { state: S; events: E[] };

/** A command waiting on its stream, and who waits for its outcome. */
interface Waiting {
  decider: unknown;
  command: unknown;
  ctx: CommandContext;
  settle: (outcome: Promise<unknown>) => void;
}

/** One command's share of a joint attempt: its events and prerequisites, or its refusal. */
interface Share<S, E> {
  waiting: Waiting;
  events: E[];
  prerequisites: Prerequisite[];
  state: S;
  revision: number;
  refused?: { error: unknown };
}

/**
 * The one write path: load the stream, fold it, decide, append with the expected revision.
 * A concurrent write in between is retried a bounded number of times, unless the caller pinned a revision.
 * Commands that arrive on a stream while it is being written wait, then are decided one after the other
 * on the state each leaves, and their events appended together: one append instead of one each.
 */
@Injectable()
export class CommandRunner {
  /** Commands waiting on each stream being written: in this process they run in order, never conflicting. */
  private readonly lanes = new Map<string, Waiting[]>();
  /** Least recently used first (a Map keeps insertion order). States are immutable, so sharing is safe. */
  private readonly folded = new Map<string, Folded>();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() private readonly observability?: Observability,
  ) {}

  now(): number {
    return this.clock.now();
  }

  /**
   * The stream's current state: the cached fold plus whatever was appended since (by this or another
   * process), so a long stream is not read again from the start on every write.
   */
  async load<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, stream: string): Promise<Loaded<S>> {
    const base = this.cached<S>(decider, stream);
    const from = base ? base.revision + 1 : 0;
    const events: RecordedEvent[] = (await this.store.readStream(stream, from)).map(upcast);
    const state = events.reduce(
      (s, e) => decider.evolve(s, e as unknown as E),
      base?.state ?? decider.initialState,
    );
    const last = events.at(-1);
    const loaded = {
      state,
      revision: last ? last.revision : (base?.revision ?? -1),
      position: last ? last.position : (base?.position ?? 0),
    };
    this.remember(stream, decider, loaded);
    return loaded;
  }

  /**
   * The state of the aggregate `id` now, for a decision taken outside its decider (whether a job has
   * anything left to do, a sign-in's provider): a read, which writes nothing.
   */
  current<C, E extends DomainEvent, S>(aggregate: Aggregate<C, E, S>, id: string): Promise<Loaded<S>> {
    return this.load(aggregate.decider, aggregate.stream(id));
  }

  private remember(stream: string, decider: unknown, folded: Omit<Folded, 'decider'>): void {
    this.folded.delete(stream);
    this.folded.set(stream, { decider, ...folded });
    if (this.folded.size > STATE_CACHE_SIZE) this.folded.delete(this.folded.keys().next().value as string);
  }

  run<C, E extends DomainEvent, S>(
    decider: Decider<C, E, S>,
    stream: string,
    command: CommandOf<C, S>,
    ctx: CommandContext,
  ): Promise<Outcome<S, E>> {
    return new Promise<Outcome<S, E>>((resolve, reject) => {
      const waiting: Waiting = {
        decider,
        command,
        ctx,
        settle: (outcome) => (outcome as Promise<Outcome<S, E>>).then(resolve, reject),
      };
      const lane = this.lanes.get(stream);
      if (lane) return void lane.push(waiting);
      this.lanes.set(stream, [waiting]);
      void this.drain(stream);
    });
  }

  /** Runs the stream's waiting commands until none is left: alone, or those of one decider together. */
  private async drain(stream: string): Promise<void> {
    const lane = this.lanes.get(stream) as Waiting[];
    while (lane.length > 0) {
      const decider = lane[0].decider as Decider<unknown, DomainEvent, unknown>;
      let n = 1;
      while (n < lane.length && n < MAX_TOGETHER && lane[n].decider === decider) n += 1;
      const group = lane.splice(0, n);
      try {
        if (group.length === 1) await this.alone(decider, stream, group[0]);
        else await this.together(decider, stream, group);
      } catch (error) {
        // A fault outside any one command (an `appended` callback): none is left waiting; settling twice does nothing.
        for (const waiting of group) waiting.settle(Promise.reject(error));
      }
    }
    this.lanes.delete(stream);
  }

  private async alone<S>(decider: Decider<unknown, DomainEvent, S>, stream: string, waiting: Waiting) {
    const outcome = this.attempt(decider, stream, waiting.command as CommandOf<unknown, S>, waiting.ctx);
    waiting.settle(outcome);
    await outcome.catch(() => undefined);
  }

  /**
   * Decides on the state this process folded last, without reading the log: another process may have
   * written the stream since, but then the append (expected revision) fails. Every other outcome (no
   * change, a refusal, a stale If-Match) is an answer given without that check, so it is decided again
   * on state read from the log. Conflicts read the log and retry, MAX_ATTEMPTS appends at most (a
   * caller that pinned a revision gets its 412 at the first retry); each is counted in the metrics.
   */
  private async attempt<C, E extends DomainEvent, S>(
    decider: Decider<C, E, S>,
    stream: string,
    command: CommandOf<C, S>,
    ctx: CommandContext,
  ): Promise<Outcome<S, E>> {
    let folded = this.cached<S>(decider, stream) ?? this.unwritten(decider, command);
    for (let conflicts = 0; ; ) {
      const trusted = folded !== undefined;
      const { state, revision, position } = folded ?? (await this.load(decider, stream));
      folded = undefined;
      let events: E[];
      const prerequisites: Prerequisite[] = [];
      try {
        events = await this.decideOn(decider, command, ctx, state, revision, prerequisites, []);
      } catch (error) {
        if (trusted) continue;
        throw error;
      }
      const after = events.reduce(decider.evolve, state);
      if (events.length === 0) {
        if (trusted) continue;
        return { position, revision, state: after, events };
      }
      try {
        const result = await this.append(
          this.prerequisiteAppends(prerequisites, ctx),
          this.ownAppend(stream, events, revision, ctx),
        );
        for (const prerequisite of prerequisites) prerequisite.appended?.();
        this.remember(stream, decider, {
          state: after,
          revision: result.nextRevision,
          position: result.position,
        });
        return { position: result.position, revision: result.nextRevision, state: after, events };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
        // Written elsewhere since this process folded the stream: not a conflict with the caller yet.
        if (trusted) {
          this.observability?.metrics.writeConflict('refolded');
          continue;
        }
        conflicts += 1;
        // Retried on the stream read again; a pinned revision (If-Match) then answers 412, as it moved.
        if (conflicts >= MAX_ATTEMPTS) {
          this.observability?.metrics.writeConflict('refused');
          throw new DomainError('conflict', 'the resource was changed concurrently, try again');
        }
        this.observability?.metrics.writeConflict('retried');
      }
    }
  }

  /**
   * Commands that waited on the stream, decided one after the other on the state each leaves (an If-Match
   * against the revision the earlier ones bring it to), their events appended at once after all their
   * prerequisites. Each outcome, refusals included, stands once that append lands, since it proves the
   * state they were decided on current. Anything else (nothing to append, a concurrent write) runs them
   * again one by one, as if they had never met: nothing of this attempt was stored or seen outside it.
   */
  private async together<C, E extends DomainEvent, S>(
    decider: Decider<C, E, S>,
    stream: string,
    group: Waiting[],
  ): Promise<void> {
    let base: Loaded<S>;
    const trusted = this.cached<S>(decider, stream);
    try {
      base = trusted ?? (await this.load(decider, stream));
    } catch (error) {
      for (const waiting of group) waiting.settle(Promise.reject(error));
      return;
    }
    const shares: Share<S, E>[] = [];
    const earlier: Prerequisite[] = [];
    let { state, revision } = base;
    for (const waiting of group) {
      const share: Share<S, E> = { waiting, events: [], prerequisites: [], state, revision };
      shares.push(share);
      try {
        const command = waiting.command as CommandOf<C, S>;
        share.events = await this.decideOn(
          decider,
          command,
          waiting.ctx,
          state,
          revision,
          share.prerequisites,
          [...earlier],
        );
      } catch (error) {
        share.refused = { error };
        share.prerequisites = [];
        continue;
      }
      if (share.events.length === 0) share.prerequisites = [];
      state = share.state = share.events.reduce(decider.evolve, state);
      revision = share.revision = revision + share.events.length;
      earlier.push(...share.prerequisites);
    }
    if (revision === base.revision) return this.oneByOne(decider, stream, group);
    let result: AppendResult;
    try {
      result = await this.append(
        shares.flatMap((s) => this.prerequisiteAppends(s.prerequisites, s.waiting.ctx)),
        {
          stream,
          events: shares.flatMap((s) => s.events.map((e) => this.envelope(e, s.waiting.ctx))),
          expected: base.revision < 0 ? 'no_stream' : base.revision,
        },
      );
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) {
        // The fold is stale: each is decided again alone, on the stream read again.
        this.observability?.metrics.writeConflict(trusted ? 'refolded' : 'retried');
        this.folded.delete(stream);
        return this.oneByOne(decider, stream, group);
      }
      for (const waiting of group) waiting.settle(Promise.reject(error));
      return;
    }
    for (const prerequisite of earlier) prerequisite.appended?.();
    this.remember(stream, decider, { state, revision: result.nextRevision, position: result.position });
    for (const share of shares) {
      share.waiting.settle(
        share.refused
          ? Promise.reject(share.refused.error)
          : Promise.resolve({
              position: result.position,
              revision: share.revision,
              state: share.state,
              events: share.events,
            }),
      );
    }
  }

  private async oneByOne<S>(decider: Decider<unknown, DomainEvent, S>, stream: string, group: Waiting[]) {
    for (const waiting of group) await this.alone(decider, stream, waiting);
  }

  /** The command's events on `state` at `revision` (If-Match checked first), computed if it must be. */
  private async decideOn<C, E extends DomainEvent, S>(
    decider: Decider<C, E, S>,
    command: CommandOf<C, S>,
    ctx: CommandContext,
    state: S,
    revision: number,
    prerequisites: Prerequisite[],
    earlier: readonly Prerequisite[],
  ): Promise<E[]> {
    if (ctx.ifMatch != null && ctx.ifMatch !== revision) {
      throw new PreconditionFailedError(`revision is ${revision}, If-Match asked for ${ctx.ifMatch}`);
    }
    const decided =
      typeof command === 'function'
        ? await (command as ComputedCommand<C, S>)(state, (p) => prerequisites.push(p), earlier)
        : command;
    return decider.decide(decided, state);
  }

  /** The command's events at the revision it was decided on. */
  private ownAppend(stream: string, events: readonly DomainEvent[], revision: number, ctx: CommandContext) {
    return {
      stream,
      events: events.map((e) => this.envelope(e, ctx)),
      expected: revision < 0 ? ('no_stream' as const) : revision,
    };
  }

  /**
   * The prerequisites' appends: each one's events in as few appends as keep every append under
   * `MAX_APPEND_BYTES`, in order, so that what a change names is never refused for its sum (content
   * objects are immutable: stored in several appends, one that lands without the others is harmless).
   * An event larger than an append is left alone in its own, which the store refuses.
   */
  private prerequisiteAppends(prerequisites: readonly Prerequisite[], ctx: CommandContext): StreamAppend[] {
    const appends: StreamAppend[] = [];
    for (const { stream, events } of prerequisites) {
      let current: NewEvent[] = [];
      let bytes = 0;
      for (const event of events) {
        const envelope = this.envelope(event, ctx);
        const weight = eventBytes(envelope);
        if (current.length > 0 && bytes + weight > MAX_APPEND_BYTES) {
          appends.push({ stream, events: current, expected: 'any' });
          current = [];
          bytes = 0;
        }
        current.push(envelope);
        bytes += weight;
      }
      if (current.length > 0) appends.push({ stream, events: current, expected: 'any' });
    }
    return appends;
  }

  /** A stream's events after what they name, in one append where there is nothing before them. */
  private async append(before: StreamAppend[], own: StreamAppend): Promise<AppendResult> {
    if (before.length === 0) return this.store.append(own.stream, own.events, own.expected);
    const results = await this.store.appendInOrder([...before, own]);
    return results[results.length - 1];
  }

  /** The state last folded for `stream` by this decider, if kept. */
  /** The state a stream the command starts has before its first event (see `Decider.startsStream`). */
  private unwritten<C, S>(
    decider: Decider<C, DomainEvent, S>,
    command: CommandOf<C, S>,
  ): Loaded<S> | undefined {
    if (typeof command === 'function' || !decider.startsStream?.(command)) return undefined;
    return { state: decider.initialState, revision: -1, position: 0 };
  }

  private cached<S>(decider: unknown, stream: string): Loaded<S> | undefined {
    const folded = this.folded.get(stream);
    return folded?.decider === decider ? (folded as Loaded<S>) : undefined;
  }

  private envelope(event: DomainEvent, ctx: CommandContext): NewEvent {
    return {
      id: newEventId(),
      type: event.type,
      data: event.data,
      metadata: {
        schemaVersion: SCHEMA_VERSION,
        occurredAt: new Date(this.clock.now()).toISOString(),
        actor: { userId: ctx.userId, tokenId: ctx.tokenId, source: ctx.source },
        correlationId: ctx.correlationId,
        causationId: ctx.causationId,
      },
    };
  }
}

/** What an event weighs in an append, as the stores count it: its data and metadata as JSON. */
function eventBytes(event: NewEvent): number {
  return (
    Buffer.byteLength(JSON.stringify(event.data) ?? 'null') +
    Buffer.byteLength(JSON.stringify(event.metadata))
  );
}
