import { Inject, Injectable, Optional } from '@nestjs/common';
import { CLOCK, type Clock } from '../clock/clock';
import { type Decider, DomainError, type DomainEvent } from '../domain/decider';
import { newEventId } from '../eventstore/event-id';
import {
  EVENT_STORE,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
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
 * their expected revision. Nothing of it is appended when the command is refused or changes nothing.
 */
export interface Prerequisite {
  stream: string;
  events: DomainEvent[];
  /** Called once they are appended, before the next command on the stream runs. */
  appended?: () => void;
}

/**
 * A command, or how to compute it from the state it will be decided on: a command whose content needs
 * reading outside the stream (a merge reads stored objects) is computed again on each attempt's state,
 * so a retry after a concurrent write never applies a result computed on what that write replaced. The
 * computation may name prerequisites, which only that attempt appends.
 */
export type CommandOf<C, S> = C | ComputedCommand<C, S>;
export type ComputedCommand<C, S> = (state: S, prerequisite: (events: Prerequisite) => void) => Promise<C>;

/**
 * The one write path: load the stream, fold it, decide, append with the expected revision.
 * A concurrent write in between is retried a bounded number of times, unless the caller pinned a revision.
 */
@Injectable()
export class CommandRunner {
  /** Commands on one stream run one after the other in this process, so they do not conflict here. */
  private readonly queues = new Map<string, Promise<unknown>>();
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
  ): Promise<WriteResult & { state: S; events: E[] }> {
    const previous = this.queues.get(stream) ?? Promise.resolve();
    const current = previous.then(
      () => this.attempt(decider, stream, command, ctx),
      () => this.attempt(decider, stream, command, ctx),
    );
    this.queues.set(stream, current);
    const cleanup = () => {
      if (this.queues.get(stream) === current) this.queues.delete(stream);
    };
    current.then(cleanup, cleanup);
    return current;
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
  ): Promise<WriteResult & { state: S; events: E[] }> {
    let folded = this.cached<S>(decider, stream);
    for (let conflicts = 0; ; ) {
      const trusted = folded !== undefined;
      const { state, revision, position } = folded ?? (await this.load(decider, stream));
      folded = undefined;
      let events: E[];
      const prerequisites: Prerequisite[] = [];
      try {
        if (ctx.ifMatch != null && ctx.ifMatch !== revision) {
          throw new PreconditionFailedError(`revision is ${revision}, If-Match asked for ${ctx.ifMatch}`);
        }
        const decided =
          typeof command === 'function'
            ? await (command as ComputedCommand<C, S>)(state, (p) => prerequisites.push(p))
            : command;
        events = decider.decide(decided, state);
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
        const result = await this.append(stream, events, revision, prerequisites, ctx);
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

  /** The command's events at the revision it was decided on, after its prerequisites. */
  private async append(
    stream: string,
    events: readonly DomainEvent[],
    revision: number,
    prerequisites: readonly Prerequisite[],
    ctx: CommandContext,
  ) {
    const own = {
      stream,
      events: events.map((e) => this.envelope(e, ctx)),
      expected: revision < 0 ? ('no_stream' as const) : revision,
    };
    const before = prerequisites
      .filter((p) => p.events.length > 0)
      .map((p) => ({
        stream: p.stream,
        events: p.events.map((e) => this.envelope(e, ctx)),
        expected: 'any' as const,
      }));
    if (before.length === 0) return this.store.append(own.stream, own.events, own.expected);
    const results = await this.store.appendInOrder([...before, own]);
    return results[results.length - 1];
  }

  /** The state last folded for `stream` by this decider, if kept. */
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
