import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer } from '@app/platform/auth/auth.guard';
import { RequiresRole } from '@app/platform/auth/requires-role';
import { ReadYourWrites } from '@app/platform/projector/read-your-writes';
import { Body, Controller, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { PublishingAuthQueries } from '../read/publishing-auth.queries';
import { PublishingAuthService } from '../write/publishing-auth.commands';
import { UpdatePublishingAuthDto } from './publishing-auth.dto';
import { organizationId, siteId } from './site-params';

/**
 * How a site's visitors authenticate, and the private key that signs their tokens: shown to the
 * organization's admins only, who alone change or regenerate it (GitBook's `site:auth:*` scopes).
 */
@Controller('orgs/:organizationId/sites/:siteId/publishing/auth')
export class PublishingAuthController {
  constructor(
    private readonly service: PublishingAuthService,
    private readonly queries: PublishingAuthQueries,
    private readonly views: ReadYourWrites,
  ) {}

  @RequiresRole('admin')
  @Get()
  get(@organizationId() org: string, @siteId() site: string, @CurrentViewer() viewer: Viewer) {
    return this.queries.get(org, site, viewer);
  }

  @RequiresRole('admin')
  @Patch()
  update(
    @organizationId() org: string,
    @siteId() site: string,
    @Body() body: UpdatePublishingAuthDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    const write = this.service.update(org, site, body, viewer);
    return this.views.after(write, () => this.queries.get(org, site, viewer));
  }

  @RequiresRole('admin')
  @Post('regenerate')
  @HttpCode(200)
  regenerate(@organizationId() org: string, @siteId() site: string, @CurrentViewer() viewer: Viewer) {
    const write = this.service.regenerate(org, site, viewer);
    return this.views.after(write, () => this.queries.get(org, site, viewer));
  }
}
