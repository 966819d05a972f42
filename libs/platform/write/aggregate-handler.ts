import { Inject, Injectable, type Type } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { AggregateMessage, AnyAggregate } from '../domain/aggregate';
import type { DomainEvent } from '../domain/decider';
import { CommandRunner, type Outcome } from './command-runner';

const HANDLERS = new WeakMap<AnyAggregate, Type<ICommandHandler>>();

/**
 * The one command handler of an aggregate, made from its declaration: the bus routes the aggregate's
 * messages here, and it runs them through `CommandRunner` on the aggregate's stream (load, fold, decide,
 * append; computed commands, prerequisites, If-Match and joint decisions as the runner has them). One
 * class per aggregate, made once, so that every module built for it registers the same handler.
 */
export function aggregateHandler(aggregate: AnyAggregate): Type<ICommandHandler> {
  const made = HANDLERS.get(aggregate);
  if (made) return made;
  const { decider, stream } = aggregate;

  @Injectable()
  @CommandHandler(aggregate.Message)
  class Handler implements ICommandHandler<AggregateMessage<unknown, unknown>> {
    constructor(@Inject(CommandRunner) private readonly runner: CommandRunner) {}

    execute({
      id,
      command,
      ctx,
    }: AggregateMessage<unknown, unknown>): Promise<Outcome<unknown, DomainEvent>> {
      return this.runner.run(decider, stream(id), command, ctx);
    }
  }
  Object.defineProperty(Handler, 'name', {
    value: aggregate.Message.name.replace(/^Run/, '').concat('Handler'),
  });
  HANDLERS.set(aggregate, Handler);
  return Handler;
}
