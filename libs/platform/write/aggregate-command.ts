import { Injectable } from '@nestjs/common';
import type { ICommandHandler } from '@nestjs/cqrs';
import type { Decider, DomainEvent } from '../domain/decider';
import type { CommandContext, WriteResult } from './command-context';
import { CommandRunner } from './command-runner';

/**
 * The message that carries one aggregate's commands on the `CommandBus`: which aggregate, the command,
 * who asks. Each aggregate declares its own subclass (`class RunSpaceCommand extends AggregateCommand<…>
 * {}`), which the bus routes to that aggregate's one handler.
 */
export abstract class AggregateCommand<C> {
  constructor(
    readonly id: string,
    readonly command: C,
    readonly ctx: CommandContext,
  ) {}
}

/**
 * An aggregate's one command handler: load its stream, fold, decide, append, through `CommandRunner`.
 * A subclass names the decider and the stream of an id, and carries `@CommandHandler(ItsCommand)`.
 */
@Injectable()
export abstract class AggregateHandler<C, E extends DomainEvent, S>
  implements ICommandHandler<AggregateCommand<C>, WriteResult>
{
  protected abstract readonly decider: Decider<C, E, S>;
  protected abstract readonly stream: (id: string) => string;

  constructor(private readonly runner: CommandRunner) {}

  execute({ id, command, ctx }: AggregateCommand<C>): Promise<WriteResult> {
    return this.runner.run(this.decider, this.stream(id), command, ctx);
  }
}
