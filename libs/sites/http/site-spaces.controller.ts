import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer } from '@app/platform/auth/auth.guard';
import { RequiresRole } from '@app/platform/auth/requires-role';
import { ReadYourWrites } from '@app/platform/projector/read-your-writes';
import { Body, Controller, Delete, Get, Header, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { SiteStructureQueries } from '../read/site-structure.queries';
import { SiteStructureService } from '../write/site-structure.commands';
import { organizationId, siteId, siteSpaceId } from './site-params';
import {
  AddSiteSpaceDto,
  MoveSiteSpaceDto,
  positionOf,
  SiteSpaceListQueryDto,
  UpdateSiteSpaceDto,
} from './site-structure.dto';

/** The site spaces of a site: members read them; `create` manages them (GitBook's content structure right). */
@Controller('orgs/:organizationId/sites/:siteId/site-spaces')
export class SiteSpacesController {
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
    @Query() query: SiteSpaceListQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.siteSpaces(org, site, { ...query }, viewer);
  }

  @RequiresRole('create')
  @Post()
  @HttpCode(201)
  add(
    @organizationId() org: string,
    @siteId() site: string,
    @Body() body: AddSiteSpaceDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    const write = this.service.addSiteSpace(
      org,
      site,
      { spaceId: body.spaceId, sectionId: body.sectionId },
      viewer,
    );
    return this.views.after(write, (w) => this.queries.siteSpace(org, site, w.siteSpaceId, viewer));
  }

  @RequiresRole('create')
  @Patch(':siteSpaceId')
  update(
    @organizationId() org: string,
    @siteId() site: string,
    @siteSpaceId() siteSpace: string,
    @Body() body: UpdateSiteSpaceDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    const write = this.service.updateSiteSpace(
      org,
      site,
      siteSpace,
      { path: body.path, spaceId: body.spaceId, condition: body.condition },
      viewer,
    );
    return this.views.after(write, () => this.queries.siteSpace(org, site, siteSpace, viewer));
  }

  @RequiresRole('create')
  @Delete(':siteSpaceId')
  @HttpCode(205)
  async delete(
    @organizationId() org: string,
    @siteId() site: string,
    @siteSpaceId() siteSpace: string,
    @CurrentViewer() viewer: Viewer,
  ): Promise<void> {
    await this.views.wait(this.service.removeSiteSpace(org, site, siteSpace, viewer));
  }

  /** GitBook's deprecated move, kept working: `sortSiteStructure` replaces it. */
  @RequiresRole('create')
  @Post(':siteSpaceId/move')
  @HttpCode(200)
  @Header('Deprecation', 'true')
  move(
    @organizationId() org: string,
    @siteId() site: string,
    @siteSpaceId() siteSpace: string,
    @Body() body: MoveSiteSpaceDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    const position = positionOf(body.position, (p) => p.siteSpace);
    const write = this.service.moveSiteSpace(org, site, siteSpace, position, viewer);
    return this.views.after(write, () => this.queries.siteSpace(org, site, siteSpace, viewer));
  }
}
