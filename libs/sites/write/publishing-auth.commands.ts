import type { Viewer } from '@app/platform/auth/access';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { apiContext } from '@app/platform/write/command-context';
import { CommandRunner } from '@app/platform/write/command-runner';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { publishingAuthAggregate } from '../domain/publishing-auth.aggregate';
import type { PublishingAuthCommand, PublishingAuthUpdate } from '../domain/publishing-auth.decider';
import { siteIn } from '../read/sites.queries';

export type { PublishingAuthUpdate };

/** Turns requests into publishing auth commands, for a site of the organization the route names. */
@Injectable()
export class PublishingAuthService {
  constructor(
    private readonly bus: CommandBus,
    private readonly runner: CommandRunner,
    @Inject(READ_STORE) private readonly views: ReadStore,
  ) {}

  private async run(organization: string, siteId: string, command: PublishingAuthCommand, viewer: Viewer) {
    await siteIn(this.views, organization, siteId);
    return this.bus.execute(publishingAuthAggregate.message(siteId, command, apiContext(viewer)));
  }

  @Remote(arg.id('organization'), arg.id('siteId'), arg.object<PublishingAuthUpdate>('body'), arg.viewer())
  update(organization: string, siteId: string, body: PublishingAuthUpdate, viewer: Viewer) {
    const update: PublishingAuthUpdate = {
      backend: body.backend,
      ...(body.fallbackURL !== undefined ? { fallbackURL: body.fallbackURL } : {}),
      ...(body.logoutURL !== undefined ? { logoutURL: body.logoutURL } : {}),
    };
    const at = this.runner.now();
    return this.run(
      organization,
      siteId,
      { type: 'UpdatePublishingAuth', siteId, organization, update, at },
      viewer,
    );
  }

  @Remote(arg.id('organization'), arg.id('siteId'), arg.viewer())
  regenerate(organization: string, siteId: string, viewer: Viewer) {
    const at = this.runner.now();
    return this.run(
      organization,
      siteId,
      { type: 'RegeneratePublishingAuthKey', siteId, organization, at },
      viewer,
    );
  }
}
