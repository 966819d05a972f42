import { newId } from '@app/platform/domain/ids';
import type { Role } from '@app/platform/domain/roles';
import { AggregateCommand, AggregateHandler } from '@app/platform/write/aggregate-command';
import type { CommandContext, WriteResult } from '@app/platform/write/command-context';
import { CommandRunner } from '@app/platform/write/command-runner';
import { Injectable } from '@nestjs/common';
import { CommandBus, CommandHandler } from '@nestjs/cqrs';
import {
  type OrganizationCommand,
  type OrganizationEvent,
  type OrganizationState,
  organizationDecider,
  organizationStream,
} from '../domain/organization.decider';

export class RunOrganizationCommand extends AggregateCommand<OrganizationCommand> {}

@CommandHandler(RunOrganizationCommand)
export class OrganizationCommandHandler extends AggregateHandler<
  OrganizationCommand,
  OrganizationEvent,
  OrganizationState
> {
  protected readonly decider = organizationDecider;
  protected readonly stream = organizationStream;
}

/** Organization writes used by bootstrap and the CLI. */
@Injectable()
export class OrganizationService {
  constructor(
    private readonly bus: CommandBus,
    private readonly runner: CommandRunner,
  ) {}

  private run(organizationId: string, command: OrganizationCommand, ctx: CommandContext) {
    return this.bus.execute<RunOrganizationCommand, WriteResult>(
      new RunOrganizationCommand(organizationId, command, ctx),
    );
  }

  async create(title: string, createdBy: string, ctx: CommandContext) {
    const organizationId = newId();
    const result = await this.run(
      organizationId,
      { type: 'CreateOrganization', organizationId, title, createdBy, at: this.runner.now() },
      ctx,
    );
    return { organizationId, position: result.position };
  }

  addMember(organizationId: string, userId: string, role: Role, ctx: CommandContext) {
    return this.run(organizationId, { type: 'AddMember', userId, role, at: this.runner.now() }, ctx);
  }

  changeRole(organizationId: string, userId: string, role: Role, ctx: CommandContext) {
    return this.run(organizationId, { type: 'ChangeMemberRole', userId, role, at: this.runner.now() }, ctx);
  }
}
