import type { Viewer } from '@app/platform/auth/access';
import { newId } from '@app/platform/domain/ids';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { apiContext, type CommandContext } from '@app/platform/write/command-context';
import { CommandRunner } from '@app/platform/write/command-runner';
import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { type WidgetCommand, widgetAggregate } from '../domain/widget.aggregate';

export interface CreateWidgetInput {
  title: string;
}

export interface UpdateWidgetInput {
  title?: string;
}

/**
 * Turns requests into __label__ commands; the routes checked the caller's role (`@RequiresRole`). In a cluster
 * the gateway calls the methods marked `@Remote` on command replicas, with arguments of the declared shapes.
 */
@Injectable()
export class WidgetService {
  constructor(
    private readonly bus: CommandBus,
    private readonly runner: CommandRunner,
  ) {}

  private run(widgetId: string, command: WidgetCommand, ctx: CommandContext) {
    return this.bus.execute(widgetAggregate.message(widgetId, command, ctx));
  }

  @Remote(arg.id('organization'), arg.object<CreateWidgetInput>('body'), arg.viewer())
  async create(organization: string, body: CreateWidgetInput, viewer: Viewer) {
    const widgetId = newId();
    const command = { type: 'CreateWidget' as const, widgetId, organization, title: body.title, at: this.runner.now() };
    return { widgetId, ...(await this.run(widgetId, command, apiContext(viewer))) };
  }

  @Remote(arg.id('widgetId'), arg.object<UpdateWidgetInput>('body'), arg.viewer(), arg.optional(arg.int('ifMatch')))
  update(widgetId: string, body: UpdateWidgetInput, viewer: Viewer, ifMatch?: number) {
    const command = { type: 'UpdateWidget' as const, changes: body, at: this.runner.now() };
    return this.run(widgetId, command, { ...apiContext(viewer), ifMatch });
  }

  @Remote(arg.id('widgetId'), arg.viewer(), arg.optional(arg.int('ifMatch')))
  delete(widgetId: string, viewer: Viewer, ifMatch?: number) {
    return this.run(widgetId, { type: 'DeleteWidget', at: this.runner.now() }, { ...apiContext(viewer), ifMatch });
  }
}
