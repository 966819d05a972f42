import type { Viewer } from '@app/platform/auth/access';
import { newId } from '@app/platform/domain/ids';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { apiContext } from '@app/platform/write/command-context';
import { CommandRunner } from '@app/platform/write/command-runner';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { siteAggregate } from '../domain/site.aggregate';
import type {
  NewSiteSpace,
  SiteCommand,
  CreateSiteInput as SiteSettingsInput,
  UpdateSiteInput,
} from '../domain/site.decider';
import type { SiteCustomization } from '../domain/site-customization';
import { siteIn } from '../read/sites.queries';
import { spaceRef } from './site-structure.commands';

export type { UpdateSiteInput };

/** GitBook's `SiteAdaptiveJSONSchema`, as sent: the site checks it. */
export interface ReplaceAdaptiveSchemaInput {
  jsonSchema: unknown;
}

/** A site's settings and the spaces (ids) it starts with. */
export interface CreateSiteInput extends SiteSettingsInput {
  spaces?: string[];
}

/**
 * Turns requests into site commands; the routes checked the caller's organization role (`@RequiresRole`).
 * In a cluster the gateway calls the methods marked `@Remote` on command replicas.
 */
@Injectable()
export class SiteService {
  constructor(
    private readonly bus: CommandBus,
    private readonly runner: CommandRunner,
    @Inject(READ_STORE) private readonly views: ReadStore,
  ) {}

  private run(siteId: string, command: SiteCommand, viewer: Viewer, ifMatch?: number) {
    return this.bus.execute(siteAggregate.message(siteId, command, { ...apiContext(viewer), ifMatch }));
  }

  @Remote(arg.id('organization'), arg.object<CreateSiteInput>('body'), arg.viewer())
  async create(organization: string, body: CreateSiteInput, viewer: Viewer) {
    const siteId = newId();
    const input: SiteSettingsInput = { title: body.title, type: body.type, visibility: body.visibility };
    const spaces: NewSiteSpace[] = [];
    for (const spaceId of body.spaces ?? [])
      spaces.push({ siteSpaceId: newId(), space: await spaceRef(this.views, spaceId, 'spaces') });
    const command: SiteCommand = {
      type: 'CreateSite',
      siteId,
      organization,
      input,
      ...(spaces.length > 0 ? { spaces } : {}),
      at: this.runner.now(),
    };
    return { siteId, ...(await this.run(siteId, command, viewer)) };
  }

  @Remote(
    arg.id('organization'),
    arg.id('siteId'),
    arg.object<UpdateSiteInput>('body'),
    arg.viewer(),
    arg.optional(arg.int('ifMatch')),
  )
  async update(
    organization: string,
    siteId: string,
    body: UpdateSiteInput,
    viewer: Viewer,
    ifMatch?: number,
  ) {
    await siteIn(this.views, organization, siteId);
    const command: SiteCommand = { type: 'UpdateSite', organization, input: body, at: this.runner.now() };
    return this.run(siteId, command, viewer, ifMatch);
  }

  @Remote(arg.id('organization'), arg.id('siteId'), arg.viewer())
  async publish(organization: string, siteId: string, viewer: Viewer) {
    await siteIn(this.views, organization, siteId);
    return this.run(siteId, { type: 'PublishSite', organization, at: this.runner.now() }, viewer);
  }

  @Remote(arg.id('organization'), arg.id('siteId'), arg.viewer())
  async unpublish(organization: string, siteId: string, viewer: Viewer) {
    await siteIn(this.views, organization, siteId);
    return this.run(siteId, { type: 'UnpublishSite', organization, at: this.runner.now() }, viewer);
  }

  /** Replaces the site's customization whole (its settings were checked against GitBook's schema). */
  @Remote(arg.id('organization'), arg.id('siteId'), arg.object<SiteCustomization>('body'), arg.viewer())
  async customize(organization: string, siteId: string, body: SiteCustomization, viewer: Viewer) {
    await siteIn(this.views, organization, siteId);
    // Only the settings given: a DTO's absent optional fields are not part of the customization.
    const customization = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
    const command: SiteCommand = {
      type: 'UpdateSiteCustomization',
      organization,
      customization,
      at: this.runner.now(),
    };
    return this.run(siteId, command, viewer);
  }

  @Remote(
    arg.id('organization'),
    arg.id('siteId'),
    arg.object<ReplaceAdaptiveSchemaInput>('body'),
    arg.viewer(),
  )
  async replaceAdaptiveSchema(
    organization: string,
    siteId: string,
    body: ReplaceAdaptiveSchemaInput,
    viewer: Viewer,
  ) {
    await siteIn(this.views, organization, siteId);
    const command: SiteCommand = {
      type: 'ReplaceSiteAdaptiveSchema',
      organization,
      jsonSchema: body.jsonSchema,
      at: this.runner.now(),
    };
    return this.run(siteId, command, viewer);
  }

  @Remote(arg.id('organization'), arg.id('siteId'), arg.viewer(), arg.optional(arg.int('ifMatch')))
  async delete(organization: string, siteId: string, viewer: Viewer, ifMatch?: number) {
    await siteIn(this.views, organization, siteId);
    return this.run(siteId, { type: 'DeleteSite', organization, at: this.runner.now() }, viewer, ifMatch);
  }
}
