import type { Viewer } from '@app/platform/auth/access';
import { invalid } from '@app/platform/domain/decider';
import { newId } from '@app/platform/domain/ids';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { apiContext } from '@app/platform/write/command-context';
import { CommandRunner } from '@app/platform/write/command-runner';
import { SPACES } from '@app/spaces/read/space.projection';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { siteAggregate } from '../domain/site.aggregate';
import type {
  SiteCommand,
  SpaceRef,
  UpdateSiteSectionGroupInput,
  UpdateSiteSectionInput,
} from '../domain/site.decider';
import type { Position } from '../domain/site-structure';
import { siteIn } from '../read/sites.queries';

/** The live space named, as the site's decider checks it; a deleted or unknown one is refused as absent. */
export async function spaceRef(views: ReadStore, spaceId: string, field = 'spaceId'): Promise<SpaceRef> {
  const space = await views.get(SPACES, spaceId);
  if (!space || space.deleted) throw invalid(`${field}: the organization has no space ${spaceId}`);
  return { id: space.id, organization: space.organization, title: space.title || 'Untitled' };
}

export interface AddSiteSpaceInput {
  spaceId: string;
  sectionId?: string;
}

export interface UpdateSiteSpaceBody {
  path?: string;
  spaceId?: string;
  condition?: string | null;
}

export interface AddSiteSectionInput {
  spaceId: string;
  title?: string | null;
  icon?: string | null;
  /** The group it goes to (at its end). */
  groupId?: string;
}

export interface AddSiteSectionGroupInput {
  title: string;
  icon?: string | null;
  /** Sections of the site, each moved into the group. */
  sections?: string[];
}

/**
 * Turns requests on a site's structure into site commands: the spaces they name are read from the views
 * (the site's decider refuses one of another organization); routes checked the caller's role.
 */
@Injectable()
export class SiteStructureService {
  constructor(
    private readonly bus: CommandBus,
    private readonly runner: CommandRunner,
    @Inject(READ_STORE) private readonly views: ReadStore,
  ) {}

  private async run(organization: string, siteId: string, command: SiteCommand, viewer: Viewer) {
    await siteIn(this.views, organization, siteId);
    return this.bus.execute(siteAggregate.message(siteId, command, apiContext(viewer)));
  }

  private space(_organization: string, spaceId: string): Promise<SpaceRef> {
    return spaceRef(this.views, spaceId);
  }

  @Remote(arg.id('organization'), arg.id('siteId'), arg.object<AddSiteSpaceInput>('body'), arg.viewer())
  async addSiteSpace(organization: string, siteId: string, body: AddSiteSpaceInput, viewer: Viewer) {
    const siteSpaceId = newId();
    const space = await this.space(organization, body.spaceId);
    const command: SiteCommand = {
      type: 'AddSiteSpace',
      organization,
      siteSpaceId,
      space,
      ...(body.sectionId !== undefined ? { sectionId: body.sectionId } : {}),
      at: this.runner.now(),
    };
    return { siteSpaceId, ...(await this.run(organization, siteId, command, viewer)) };
  }

  @Remote(
    arg.id('organization'),
    arg.id('siteId'),
    arg.id('siteSpaceId'),
    arg.object<UpdateSiteSpaceBody>('body'),
    arg.viewer(),
  )
  async updateSiteSpace(
    organization: string,
    siteId: string,
    siteSpaceId: string,
    body: UpdateSiteSpaceBody,
    viewer: Viewer,
  ) {
    const space = body.spaceId === undefined ? undefined : await this.space(organization, body.spaceId);
    const input = {
      ...(body.path !== undefined ? { path: body.path } : {}),
      ...(space ? { space } : {}),
      ...(body.condition !== undefined ? { condition: body.condition } : {}),
    };
    const command: SiteCommand = {
      type: 'UpdateSiteSpace',
      organization,
      siteSpaceId,
      input,
      at: this.runner.now(),
    };
    return this.run(organization, siteId, command, viewer);
  }

  @Remote(arg.id('organization'), arg.id('siteId'), arg.id('siteSpaceId'), arg.viewer())
  async removeSiteSpace(organization: string, siteId: string, siteSpaceId: string, viewer: Viewer) {
    const command: SiteCommand = {
      type: 'RemoveSiteSpace',
      organization,
      siteSpaceId,
      at: this.runner.now(),
    };
    return this.run(organization, siteId, command, viewer);
  }

  @Remote(
    arg.id('organization'),
    arg.id('siteId'),
    arg.id('siteSpaceId'),
    arg.object<Position>('position'),
    arg.viewer(),
  )
  async moveSiteSpace(
    organization: string,
    siteId: string,
    siteSpaceId: string,
    position: Position,
    viewer: Viewer,
  ) {
    const command: SiteCommand = {
      type: 'MoveSiteSpace',
      organization,
      siteSpaceId,
      position,
      at: this.runner.now(),
    };
    return this.run(organization, siteId, command, viewer);
  }

  @Remote(arg.id('organization'), arg.id('siteId'), arg.object<AddSiteSectionInput>('body'), arg.viewer())
  async addSection(organization: string, siteId: string, body: AddSiteSectionInput, viewer: Viewer) {
    const sectionId = newId();
    const space = await this.space(organization, body.spaceId);
    const command: SiteCommand = {
      type: 'AddSiteSection',
      organization,
      sectionId,
      rootSectionId: newId(),
      siteSpaceId: newId(),
      space,
      ...(typeof body.title === 'string' ? { title: body.title } : {}),
      ...(typeof body.icon === 'string' ? { icon: body.icon } : {}),
      ...(body.groupId !== undefined ? { groupId: body.groupId } : {}),
      at: this.runner.now(),
    };
    return { sectionId, ...(await this.run(organization, siteId, command, viewer)) };
  }

  @Remote(
    arg.id('organization'),
    arg.id('siteId'),
    arg.id('sectionId'),
    arg.object<UpdateSiteSectionInput>('body'),
    arg.viewer(),
  )
  async updateSection(
    organization: string,
    siteId: string,
    sectionId: string,
    body: UpdateSiteSectionInput,
    viewer: Viewer,
  ) {
    // Only the fields given: a DTO's absent optional fields change nothing.
    const input = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
    const command: SiteCommand = {
      type: 'UpdateSiteSection',
      organization,
      sectionId,
      input,
      at: this.runner.now(),
    };
    return this.run(organization, siteId, command, viewer);
  }

  @Remote(arg.id('organization'), arg.id('siteId'), arg.id('sectionId'), arg.viewer())
  async removeSection(organization: string, siteId: string, sectionId: string, viewer: Viewer) {
    const command: SiteCommand = {
      type: 'RemoveSiteSection',
      organization,
      sectionId,
      at: this.runner.now(),
    };
    return this.run(organization, siteId, command, viewer);
  }

  @Remote(
    arg.id('organization'),
    arg.id('siteId'),
    arg.id('sectionId'),
    arg.object<Position>('position'),
    arg.viewer(),
  )
  async moveSection(
    organization: string,
    siteId: string,
    sectionId: string,
    position: Position,
    viewer: Viewer,
  ) {
    const command: SiteCommand = {
      type: 'MoveSiteSection',
      organization,
      sectionId,
      position,
      at: this.runner.now(),
    };
    return this.run(organization, siteId, command, viewer);
  }

  @Remote(
    arg.id('organization'),
    arg.id('siteId'),
    arg.object<AddSiteSectionGroupInput>('body'),
    arg.viewer(),
  )
  async addGroup(organization: string, siteId: string, body: AddSiteSectionGroupInput, viewer: Viewer) {
    const groupId = newId();
    const command: SiteCommand = {
      type: 'AddSiteSectionGroup',
      organization,
      groupId,
      title: body.title,
      ...(typeof body.icon === 'string' ? { icon: body.icon } : {}),
      sections: body.sections ?? [],
      at: this.runner.now(),
    };
    return { groupId, ...(await this.run(organization, siteId, command, viewer)) };
  }

  @Remote(
    arg.id('organization'),
    arg.id('siteId'),
    arg.id('groupId'),
    arg.object<UpdateSiteSectionGroupInput>('body'),
    arg.viewer(),
  )
  async updateGroup(
    organization: string,
    siteId: string,
    groupId: string,
    body: UpdateSiteSectionGroupInput,
    viewer: Viewer,
  ) {
    const input = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
    const at = this.runner.now();
    const command: SiteCommand = { type: 'UpdateSiteSectionGroup', organization, groupId, input, at };
    return this.run(organization, siteId, command, viewer);
  }

  @Remote(arg.id('organization'), arg.id('siteId'), arg.id('groupId'), arg.viewer())
  async removeGroup(organization: string, siteId: string, groupId: string, viewer: Viewer) {
    const at = this.runner.now();
    return this.run(
      organization,
      siteId,
      { type: 'RemoveSiteSectionGroup', organization, groupId, at },
      viewer,
    );
  }

  @Remote(
    arg.id('organization'),
    arg.id('siteId'),
    arg.id('groupId'),
    arg.object<Position>('position'),
    arg.viewer(),
  )
  async moveGroup(organization: string, siteId: string, groupId: string, position: Position, viewer: Viewer) {
    const at = this.runner.now();
    const command: SiteCommand = { type: 'MoveSiteSectionGroup', organization, groupId, position, at };
    return this.run(organization, siteId, command, viewer);
  }

  /** Puts a section in a group (`add`), or takes it out to the top level, just after the group. */
  @Remote(
    arg.id('organization'),
    arg.id('siteId'),
    arg.id('groupId'),
    arg.id('sectionId'),
    arg.oneOf('change', ['add', 'remove'] as const),
    arg.viewer(),
  )
  async groupSection(
    organization: string,
    siteId: string,
    groupId: string,
    sectionId: string,
    change: 'add' | 'remove',
    viewer: Viewer,
  ) {
    const type = change === 'add' ? 'AddSectionToGroup' : 'RemoveSectionFromGroup';
    const command: SiteCommand = { type, organization, groupId, sectionId, at: this.runner.now() };
    return this.run(organization, siteId, command, viewer);
  }
}
