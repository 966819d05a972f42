import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer } from '@app/platform/auth/auth.guard';
import { RequiresRole } from '@app/platform/auth/requires-role';
import { IfMatch } from '@app/platform/http/etag';
import { ReadYourWrites } from '@app/platform/projector/read-your-writes';
import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put, Query } from '@nestjs/common';
import { SiteQueries } from '../read/sites.queries';
import { SiteService } from '../write/site.commands';
import { SiteCustomizationDto, SiteCustomizationQueryDto } from './customization.dto';
import { organizationId, siteId } from './site-params';
import { CreateSiteDto, SiteAdaptiveSchemaDto, SiteListQueryDto, UpdateSiteDto } from './sites.dto';

/**
 * Sites of an organization. Members read them; `create` creates one; its settings, publication and
 * deletion are the organization's admins'.
 */
@Controller('orgs/:organizationId/sites')
export class SitesController {
  constructor(
    private readonly service: SiteService,
    private readonly queries: SiteQueries,
    private readonly views: ReadYourWrites,
  ) {}

  @RequiresRole('read')
  @Get()
  list(@organizationId() org: string, @Query() query: SiteListQueryDto, @CurrentViewer() viewer: Viewer) {
    return this.queries.list(org, query, viewer);
  }

  @RequiresRole('create')
  @Post()
  @HttpCode(201)
  create(@organizationId() org: string, @Body() body: CreateSiteDto, @CurrentViewer() viewer: Viewer) {
    const write = this.service.create(org, body, viewer);
    return this.views.after(write, (w) => this.queries.get(org, w.siteId, viewer));
  }

  @RequiresRole('read')
  @Get(':siteId')
  get(@organizationId() org: string, @siteId() id: string, @CurrentViewer() viewer: Viewer) {
    return this.queries.get(org, id, viewer);
  }

  @RequiresRole('admin')
  @Patch(':siteId')
  update(
    @organizationId() org: string,
    @siteId() id: string,
    @Body() body: UpdateSiteDto,
    @CurrentViewer() viewer: Viewer,
    @IfMatch() ifMatch?: number,
  ) {
    const write = this.service.update(org, id, body, viewer, ifMatch);
    return this.views.after(write, () => this.queries.get(org, id, viewer));
  }

  @RequiresRole('admin')
  @Post(':siteId/publish')
  @HttpCode(200)
  publish(@organizationId() org: string, @siteId() id: string, @CurrentViewer() viewer: Viewer) {
    return this.views.after(this.service.publish(org, id, viewer), () => this.queries.get(org, id, viewer));
  }

  @RequiresRole('admin')
  @Post(':siteId/unpublish')
  @HttpCode(200)
  unpublish(@organizationId() org: string, @siteId() id: string, @CurrentViewer() viewer: Viewer) {
    return this.views.after(this.service.unpublish(org, id, viewer), () => this.queries.get(org, id, viewer));
  }

  @RequiresRole('read')
  @Get(':siteId/customization')
  customization(
    @organizationId() org: string,
    @siteId() id: string,
    @Query() _query: SiteCustomizationQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.customization(org, id, viewer);
  }

  @RequiresRole('admin')
  @Put(':siteId/customization')
  customize(
    @organizationId() org: string,
    @siteId() id: string,
    @Body() body: SiteCustomizationDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    const write = this.service.customize(org, id, { ...body }, viewer);
    return this.views.after(write, () => this.queries.customization(org, id, viewer));
  }

  @RequiresRole('read')
  @Get(':siteId/adaptive-schema')
  adaptiveSchema(@organizationId() org: string, @siteId() id: string, @CurrentViewer() viewer: Viewer) {
    return this.queries.adaptiveSchema(org, id, viewer);
  }

  @RequiresRole('admin')
  @Put(':siteId/adaptive-schema')
  replaceAdaptiveSchema(
    @organizationId() org: string,
    @siteId() id: string,
    @Body() body: SiteAdaptiveSchemaDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    const write = this.service.replaceAdaptiveSchema(org, id, body, viewer);
    return this.views.after(write, () => this.queries.adaptiveSchema(org, id, viewer));
  }

  @RequiresRole('read')
  @Get(':siteId/adaptive-schema/template-conditions')
  templateConditions(@organizationId() org: string, @siteId() id: string, @CurrentViewer() viewer: Viewer) {
    return this.queries.templateConditions(org, id, viewer);
  }

  @RequiresRole('admin')
  @Delete(':siteId')
  @HttpCode(205)
  async delete(
    @organizationId() org: string,
    @siteId() id: string,
    @CurrentViewer() viewer: Viewer,
    @IfMatch() ifMatch?: number,
  ): Promise<void> {
    await this.views.wait(this.service.delete(org, id, viewer, ifMatch));
  }
}
