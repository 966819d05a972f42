import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer } from '@app/platform/auth/auth.guard';
import { RequiresRole } from '@app/platform/auth/requires-role';
import { ReadYourWrites } from '@app/platform/projector/read-your-writes';
import { Body, Controller, Delete, Get, Header, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { SiteStructureQueries } from '../read/site-structure.queries';
import { SiteStructureService } from '../write/site-structure.commands';
import { organizationId, sectionId, siteId } from './site-params';
import {
  AddSiteSectionDto,
  MoveSiteSectionDto,
  positionOf,
  SiteSectionListQueryDto,
  UpdateSiteSectionDto,
} from './site-structure.dto';

/** The sections of a site: members read them; `create` manages them (GitBook's content structure right). */
@Controller('orgs/:organizationId/sites/:siteId/sections')
export class SiteSectionsController {
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
    @Query() query: SiteSectionListQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    const { page, limit, shareKey } = query;
    return this.queries.sections(org, site, { page, limit, shareKey }, viewer);
  }

  @RequiresRole('create')
  @Post()
  @HttpCode(201)
  add(
    @organizationId() org: string,
    @siteId() site: string,
    @Body() body: AddSiteSectionDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    const { spaceId, title, icon, siteSectionGroupId: groupId } = body;
    const input = { spaceId, title, icon, groupId };
    const write = this.service.addSection(org, site, input, viewer);
    return this.views.after(write, (w) => this.queries.section(org, site, w.sectionId, viewer));
  }

  @RequiresRole('create')
  @Patch(':siteSectionId')
  update(
    @organizationId() org: string,
    @siteId() site: string,
    @sectionId() section: string,
    @Body() body: UpdateSiteSectionDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    const { title, path, defaultSiteSpace, icon, description, condition, siteSectionGroupId: group } = body;
    const input = { title, path, defaultSiteSpace, icon, description, condition, group };
    const write = this.service.updateSection(org, site, section, input, viewer);
    return this.views.after(write, () => this.queries.section(org, site, section, viewer));
  }

  @RequiresRole('create')
  @Delete(':siteSectionId')
  @HttpCode(205)
  async delete(
    @organizationId() org: string,
    @siteId() site: string,
    @sectionId() section: string,
    @CurrentViewer() viewer: Viewer,
  ): Promise<void> {
    await this.views.wait(this.service.removeSection(org, site, section, viewer));
  }

  /** GitBook's deprecated move, kept working: `sortSiteStructure` replaces it. */
  @RequiresRole('create')
  @Post(':siteSectionId/move')
  @HttpCode(200)
  @Header('Deprecation', 'true')
  move(
    @organizationId() org: string,
    @siteId() site: string,
    @sectionId() section: string,
    @Body() body: MoveSiteSectionDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    const position = positionOf(body.position, (p) => p.siteSection);
    const write = this.service.moveSection(org, site, section, position, viewer);
    return this.views.after(write, () => this.queries.section(org, site, section, viewer));
  }
}
