import type { Viewer } from '@app/platform/auth/access';
import { conflict, invalid } from '@app/platform/domain/decider';
import { newId } from '@app/platform/domain/ids';
import type { Role } from '@app/platform/domain/roles';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { apiContext, type CommandContext } from '@app/platform/write/command-context';
import { CommandRunner } from '@app/platform/write/command-runner';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { organizationAggregate } from '../domain/organization.aggregate';
import { type OrganizationCommand, type OrganizationSettings } from '../domain/organization.decider';
import { ORGANIZATIONS } from '../read/organization.projection';

/** GitBook's `SitePointer`: the only form of an organization's default content. */
export interface DefaultContentInput {
  type: 'site';
  site: string;
}

/** The body of `updateOrganizationById`: every field optional; null clears a nullable one. */
export interface UpdateOrganizationInput extends Partial<OrganizationSettings> {
  defaultContent?: DefaultContentInput | null;
}

/** Organization writes: the API's update, and what bootstrap and the CLI use. */
@Injectable()
export class OrganizationService {
  constructor(
    private readonly bus: CommandBus,
    private readonly runner: CommandRunner,
    @Inject(READ_STORE) private readonly views: ReadStore,
  ) {}

  private run(organizationId: string, command: OrganizationCommand, ctx: CommandContext) {
    return this.bus.execute(organizationAggregate.message(organizationId, command, ctx));
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

  /** The route checked the caller administers the organization. */
  @Remote(arg.id('organizationId'), arg.object<UpdateOrganizationInput>('body'), arg.viewer())
  async update(organizationId: string, body: UpdateOrganizationInput, viewer: Viewer) {
    const { defaultContent, ...changes } = body;
    // Sites are not served here, so no site can be the default content; null is what it already is.
    if (defaultContent)
      throw invalid(`defaultContent: there is no site ${defaultContent.site} in this organization`);
    if (changes.hostname !== undefined) {
      const taken = await this.views.find(ORGANIZATIONS, { where: { hostname: changes.hostname }, limit: 2 });
      if (taken.items.some((org) => org.id !== organizationId)) {
        throw conflict(`hostname ${changes.hostname} is taken by another organization`);
      }
    }
    return this.run(
      organizationId,
      { type: 'UpdateOrganization', changes, at: this.runner.now(), by: viewer.userId },
      apiContext(viewer),
    );
  }
}
