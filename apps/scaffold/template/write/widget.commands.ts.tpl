import type { Viewer } from '@app/platform/auth/access';
import { notFound } from '@app/platform/domain/decider';
import { newId } from '@app/platform/domain/ids';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { apiContext } from '@app/platform/write/command-context';
import { CommandRunner } from '@app/platform/write/command-runner';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { type WidgetCommand, widgetAggregate } from '../domain/widget.aggregate';
import type { WidgetInput } from '../domain/widget.decider';
import { WIDGETS } from '../read/widget.projection';

export type { WidgetInput };

/**
 * Turns requests into __label__ commands; the routes checked the caller's role (`@RequiresRole`). In a cluster
 * the gateway calls the methods marked `@Remote` on command replicas, with arguments of the declared shapes.
 */
@Injectable()
export class WidgetService {
  constructor(
    private readonly bus: CommandBus,
    private readonly runner: CommandRunner,
    @Inject(READ_STORE) private readonly views: ReadStore,
  ) {}

  private run(widgetId: string, command: WidgetCommand, viewer: Viewer, ifMatch?: number) {
    return this.bus.execute(widgetAggregate.message(widgetId, command, { ...apiContext(viewer), ifMatch }));
  }

  /** The organization of a __label__ (the route was authorized through it); the decider checks it again. */
  private async organizationOf(widgetId: string): Promise<string> {
    const doc = await this.views.get(WIDGETS, widgetId);
    if (!doc) throw notFound('__Label__ not found');
    return doc.organization;
  }

  @Remote(arg.id('organization'), arg.object<WidgetInput>('body'), arg.viewer())
  async create(organization: string, body: WidgetInput, viewer: Viewer) {
    const widgetId = newId();
    const command: WidgetCommand = { type: 'CreateWidget', widgetId, organization, input: body, at: this.runner.now() };
    return { widgetId, ...(await this.run(widgetId, command, viewer)) };
  }

  @Remote(arg.id('widgetId'), arg.object<WidgetInput>('body'), arg.viewer(), arg.optional(arg.int('ifMatch')))
  async update(widgetId: string, body: WidgetInput, viewer: Viewer, ifMatch?: number) {
    const organization = await this.organizationOf(widgetId);
    const command: WidgetCommand = { type: 'UpdateWidget', organization, input: body, at: this.runner.now() };
    return this.run(widgetId, command, viewer, ifMatch);
  }

  @Remote(arg.id('widgetId'), arg.viewer(), arg.optional(arg.int('ifMatch')))
  async delete(widgetId: string, viewer: Viewer, ifMatch?: number) {
    const organization = await this.organizationOf(widgetId);
    return this.run(widgetId, { type: 'DeleteWidget', organization, at: this.runner.now() }, viewer, ifMatch);
  }
}
