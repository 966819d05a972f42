import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer } from '@app/platform/auth/auth.guard';
import { RequiresRole } from '@app/platform/auth/requires-role';
import { ListQueryDto } from '@app/platform/http/pagination';
import { OwnShape } from '@app/platform/openapi/own-shape';
import { ReadYourWrites } from '@app/platform/projector/read-your-writes';
import { Body, Controller, Delete, Get, Header, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { SiteStructureQueries } from '../read/site-structure.queries';
import { SiteStructureService } from '../write/site-structure.commands';
import { groupId, organizationId, sectionId, siteId } from './site-params';
import {
  AddSectionToGroupDto,
  AddSiteSectionGroupDto,
  MoveSiteSectionGroupDto,
  positionOf,
  UpdateSiteSectionGroupDto,
} from './site-structure.dto';

/**
 * The section groups of a site: top-level items holding some of its sections. Members read them; `create`
 * manages them (GitBook's content structure right), as the sections.
 */
@Controller('orgs/:organizationId/sites/:siteId/section-groups')
export class SiteSectionGroupsController {
  constructor(
    private readonly service: SiteStructureService,
    private readonly queries: SiteStructureQueries,
    private readonly views: ReadYourWrites,
  ) {}

  @RequiresRole('read')
  @Get()
  list(
    @organizationId() org: string,
    @siteId() site: string,
    @Query() query: ListQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.groups(org, site, { page: query.page, limit: query.limit }, viewer);
  }

  @RequiresRole('create')
  @Post()
  @HttpCode(201)
  add(
    @organizationId() org: string,
    @siteId() site: string,
    @Body() body: AddSiteSectionGroupDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    const input = { title: body.title, icon: body.icon, sections: body.sections };
    const write = this.service.addGroup(org, site, input, viewer);
    return this.views.after(write, (w) => this.queries.group(org, site, w.groupId, viewer));
  }

  @RequiresRole('create')
  @Patch(':siteSectionGroupId')
  update(
    @organizationId() org: string,
    @siteId() site: string,
    @groupId() group: string,
    @Body() body: UpdateSiteSectionGroupDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    const write = this.service.updateGroup(org, site, group, { title: body.title, icon: body.icon }, viewer);
    return this.views.after(write, () => this.queries.group(org, site, group, viewer));
  }

  /** Its sections stay, at the top level in its place. */
  @RequiresRole('create')
  @Delete(':siteSectionGroupId')
  @HttpCode(205)
  async delete(
    @organizationId() org: string,
    @siteId() site: string,
    @groupId() group: string,
    @CurrentViewer() viewer: Viewer,
  ): Promise<void> {
    await this.views.wait(this.service.removeGroup(org, site, group, viewer));
  }

  /** A section of the site into the group, at its end (from the top level or another group). */
  @RequiresRole('create')
  @Post(':siteSectionGroupId/sections')
  @HttpCode(201)
  @OwnShape("GitBook's `SiteSectionGroup`: the group with the section", 'SiteSectionGroup')
  addSection(
    @organizationId() org: string,
    @siteId() site: string,
    @groupId() group: string,
    @Body() body: AddSectionToGroupDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    const write = this.service.groupSection(org, site, group, body.sectionId, 'add', viewer);
    return this.views.after(write, () => this.queries.group(org, site, group, viewer));
  }

  /** The section leaves the group for the top level, just after the group. */
  @RequiresRole('create')
  @Delete(':siteSectionGroupId/sections/:siteSectionId')
  @HttpCode(205)
  @OwnShape('No content (205): the section is out of the group, at the top level just after it')
  async removeSection(
    @organizationId() org: string,
    @siteId() site: string,
    @groupId() group: string,
    @sectionId() section: string,
    @CurrentViewer() viewer: Viewer,
  ): Promise<void> {
    await this.views.wait(this.service.groupSection(org, site, group, section, 'remove', viewer));
  }

  /** GitBook's deprecated move, kept working: `sortSiteStructure` replaces it. */
  @RequiresRole('create')
  @Post(':siteSectionGroupId/move')
  @HttpCode(200)
  @Header('Deprecation', 'true')
  move(
    @organizationId() org: string,
    @siteId() site: string,
    @groupId() group: string,
    @Body() body: MoveSiteSectionGroupDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    const position = positionOf(body.position, (p) => p.id);
    const write = this.service.moveGroup(org, site, group, position, viewer);
    return this.views.after(write, () => this.queries.group(org, site, group, viewer));
  }
}
