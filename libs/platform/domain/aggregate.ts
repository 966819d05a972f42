import type { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../write/command-context';
import type { CommandOf, Outcome } from '../write/command-runner';
import type { Decider, DomainEvent } from './decider';

/**
 * The message that carries one command of an aggregate on the `CommandBus`: the aggregate's id (its
 * stream), the command (or how to compute it from the state it is decided on: `CommandOf`) and who asks.
 * Each aggregate has its own subclass, made by `aggregate()`, which the bus routes to its one handler.
 */
export class AggregateMessage<C, S> {
  constructor(
    readonly id: string,
    readonly command: CommandOf<C, S>,
    readonly ctx: CommandContext,
  ) {}
}

/** An aggregate's message as the bus sees it: its handler answers the runner's outcome. */
export type MessageOf<C, E extends DomainEvent, S> = AggregateMessage<C, S> & Command<Outcome<S, E>>;

/**
 * An aggregate as a feature declares it (in its domain, listed in its manifest's `aggregates`): a name,
 * its decider, the stream of an id, and the message its commands travel in. The platform gives each
 * aggregate its one command handler from this declaration (`aggregateHandler`); anyone writing to the
 * aggregate, inside its feature or outside, sends `aggregate.message(id, command, ctx)` on the bus.
 */
export interface Aggregate<C, E extends DomainEvent, S> {
  readonly name: string;
  readonly decider: Decider<C, E, S>;
  readonly stream: (id: string) => string;
  /** The message class the bus routes to this aggregate's handler. */
  readonly Message: new (
    id: string,
    command: CommandOf<C, S>,
    ctx: CommandContext,
  ) => AggregateMessage<C, S>;
  /** The message for `command` on the aggregate `id`, to `CommandBus.execute`. */
  message(id: string, command: CommandOf<C, S>, ctx: CommandContext): MessageOf<C, E, S>;
}

/** Any aggregate, as manifests list them. */
// biome-ignore lint/suspicious/noExplicitAny: commands, events and states differ from one aggregate to the next.
export type AnyAggregate = Aggregate<any, any, any>;

const pascal = (name: string) =>
  name
    .split(/[-_ ]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');

/**
 * Declares an aggregate (pure: no Nest here, so manifests stay cheap to load). `name` is in kebab case
 * (`space-content`); the message class is named after it (`RunSpaceContentCommand`), as errors show it.
 */
export function aggregate<C, E extends DomainEvent, S>(declared: {
  name: string;
  decider: Decider<C, E, S>;
  stream: (id: string) => string;
}): Aggregate<C, E, S> {
  const Message = class extends AggregateMessage<C, S> {};
  Object.defineProperty(Message, 'name', { value: `Run${pascal(declared.name)}Command` });
  return {
    name: declared.name,
    decider: declared.decider,
    stream: declared.stream,
    Message,
    message: (id, command, ctx) => new Message(id, command, ctx) as MessageOf<C, E, S>,
  };
}
