import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer } from '@app/platform/auth/auth.guard';
import { RequiresRole } from '@app/platform/auth/requires-role';
import { IfMatch } from '@app/platform/http/etag';
import { ReadYourWrites } from '@app/platform/projector/read-your-writes';
import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ShareLinkQueries } from '../read/share-links.queries';
import { ShareLinkService } from '../write/share-link.commands';
import { CreateShareLinkDto, ShareLinkListQueryDto, UpdateShareLinkDto } from './share-links.dto';
import { organizationId, shareLinkId, siteId } from './site-params';

/**
 * Share links of a site. Each lists its key in its URL, which opens the site to whoever holds it, so
 * listing them is as much the organization's admins' as creating, changing or deleting them (the site's
 * `admin` permission, GitBook's `site:auth:*` scopes).
 */
@Controller('orgs/:organizationId/sites/:siteId/share-links')
export class ShareLinksController {
  constructor(
    private readonly service: ShareLinkService,
    private readonly queries: ShareLinkQueries,
    private readonly views: ReadYourWrites,
  ) {}

  @RequiresRole('admin')
  @Get()
  list(
    @organizationId() org: string,
    @siteId() site: string,
    @Query() query: ShareLinkListQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.list(org, site, query, viewer);
  }

  @RequiresRole('admin')
  @Post()
  @HttpCode(201)
  create(
    @organizationId() org: string,
    @siteId() site: string,
    @Body() body: CreateShareLinkDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    const write = this.service.create(org, site, { name: body.name }, viewer);
    return this.views.after(write, (w) => this.queries.get(org, site, w.shareLinkId, viewer));
  }

  @RequiresRole('admin')
  @Patch(':shareLinkId')
  update(
    @organizationId() org: string,
    @siteId() site: string,
    @shareLinkId() link: string,
    @Body() body: UpdateShareLinkDto,
    @CurrentViewer() viewer: Viewer,
    @IfMatch() ifMatch?: number,
  ) {
    const write = this.service.update(org, site, link, body, viewer, ifMatch);
    return this.views.after(write, () => this.queries.get(org, site, link, viewer));
  }

  @RequiresRole('admin')
  @Delete(':shareLinkId')
  @HttpCode(205)
  async delete(
    @organizationId() org: string,
    @siteId() site: string,
    @shareLinkId() link: string,
    @CurrentViewer() viewer: Viewer,
    @IfMatch() ifMatch?: number,
  ): Promise<void> {
    await this.views.wait(this.service.delete(org, site, link, viewer, ifMatch));
  }
}
