import type { Viewer } from '@app/platform/auth/access';
import { newId } from '@app/platform/domain/ids';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { apiContext } from '@app/platform/write/command-context';
import { CommandRunner } from '@app/platform/write/command-runner';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { shareLinkAggregate } from '../domain/share-link.aggregate';
import type { ShareLinkCommand, UpdateShareLinkInput } from '../domain/share-link.decider';
import { ShareLinkKeys } from '../read/share-link.keys';
import { siteIn } from '../read/sites.queries';

export type { UpdateShareLinkInput };

export interface CreateShareLinkInput {
  name: string;
}

/**
 * Turns requests into share link commands; the routes checked the caller's organization role. The
 * site must be the organization's; the link, the site's (its decider checks).
 */
@Injectable()
export class ShareLinkService {
  constructor(
    private readonly bus: CommandBus,
    private readonly runner: CommandRunner,
    private readonly keys: ShareLinkKeys,
    @Inject(READ_STORE) private readonly views: ReadStore,
  ) {}

  private run(shareLinkId: string, command: ShareLinkCommand, viewer: Viewer, ifMatch?: number) {
    return this.bus.execute(
      shareLinkAggregate.message(shareLinkId, command, { ...apiContext(viewer), ifMatch }),
    );
  }

  @Remote(arg.id('organization'), arg.id('siteId'), arg.object<CreateShareLinkInput>('body'), arg.viewer())
  async create(organization: string, siteId: string, body: CreateShareLinkInput, viewer: Viewer) {
    await siteIn(this.views, organization, siteId);
    const shareLinkId = newId();
    const keyHash = this.keys.hashOf(this.keys.keyOf(shareLinkId));
    const command: ShareLinkCommand = {
      type: 'CreateShareLink',
      shareLinkId,
      siteId,
      organization,
      name: body.name,
      keyHash,
      at: this.runner.now(),
    };
    return { shareLinkId, ...(await this.run(shareLinkId, command, viewer)) };
  }

  @Remote(
    arg.id('organization'),
    arg.id('siteId'),
    arg.id('shareLinkId'),
    arg.object<UpdateShareLinkInput>('body'),
    arg.viewer(),
    arg.optional(arg.int('ifMatch')),
  )
  async update(
    organization: string,
    siteId: string,
    shareLinkId: string,
    body: UpdateShareLinkInput,
    viewer: Viewer,
    ifMatch?: number,
  ) {
    await siteIn(this.views, organization, siteId);
    const input: UpdateShareLinkInput = { name: body.name, active: body.active };
    const command: ShareLinkCommand = {
      type: 'UpdateShareLink',
      organization,
      siteId,
      input,
      at: this.runner.now(),
    };
    return this.run(shareLinkId, command, viewer, ifMatch);
  }

  @Remote(
    arg.id('organization'),
    arg.id('siteId'),
    arg.id('shareLinkId'),
    arg.viewer(),
    arg.optional(arg.int('ifMatch')),
  )
  async delete(organization: string, siteId: string, shareLinkId: string, viewer: Viewer, ifMatch?: number) {
    await siteIn(this.views, organization, siteId);
    const command: ShareLinkCommand = {
      type: 'DeleteShareLink',
      organization,
      siteId,
      at: this.runner.now(),
    };
    return this.run(shareLinkId, command, viewer, ifMatch);
  }
}
