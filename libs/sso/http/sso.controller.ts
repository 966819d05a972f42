import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer } from '@app/platform/auth/auth.guard';
import { RequiresRole } from '@app/platform/auth/requires-role';
import { IfMatch } from '@app/platform/http/etag';
import { id } from '@app/platform/http/ids.pipe';
import { ListQueryDto } from '@app/platform/http/pagination';
import { ReadYourWrites } from '@app/platform/projector/read-your-writes';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { SamlProviderQueries } from '../read/saml-providers.queries';
import { SamlProviderService } from '../write/saml-provider.commands';
import { CreateSamlProviderDto, UpdateSamlProviderDto } from './sso.dto';

const organizationId = () => Param('organizationId', id('organizationId'));
const samlProviderId = () => Param('samlProviderId', id('samlProviderId'));

/** SAML providers are managed by administrators only: members may not read their certificates. */
@Controller()
export class SsoController {
  constructor(
    private readonly service: SamlProviderService,
    private readonly queries: SamlProviderQueries,
    private readonly views: ReadYourWrites,
  ) {}

  @RequiresRole('admin')
  @Get('orgs/:organizationId/saml')
  list(@organizationId() org: string, @Query() query: ListQueryDto, @CurrentViewer() viewer: Viewer) {
    return this.queries.list(org, query, viewer);
  }

  @RequiresRole('admin')
  @Post('orgs/:organizationId/saml')
  @HttpCode(201)
  create(
    @organizationId() org: string,
    @Body() body: CreateSamlProviderDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.views.after(this.service.create(org, body, viewer), (w) =>
      this.queries.get(org, w.samlProviderId, viewer),
    );
  }

  @RequiresRole('admin')
  @Get('orgs/:organizationId/saml/:samlProviderId')
  get(@organizationId() org: string, @samlProviderId() id: string, @CurrentViewer() viewer: Viewer) {
    return this.queries.get(org, id, viewer);
  }

  @RequiresRole('admin')
  @Patch('orgs/:organizationId/saml/:samlProviderId')
  update(
    @organizationId() org: string,
    @samlProviderId() id: string,
    @Body() body: UpdateSamlProviderDto,
    @CurrentViewer() viewer: Viewer,
    @IfMatch() ifMatch?: number,
  ) {
    return this.views.after(this.service.update(org, id, body, viewer, ifMatch), () =>
      this.queries.get(org, id, viewer),
    );
  }

  @RequiresRole('admin')
  @Delete('orgs/:organizationId/saml/:samlProviderId')
  @HttpCode(204)
  async delete(
    @organizationId() org: string,
    @samlProviderId() id: string,
    @CurrentViewer() viewer: Viewer,
  ): Promise<void> {
    await this.views.wait(this.service.delete(org, id, viewer));
  }

  /** Where members sign in: any member may read it (no certificates in it). */
  @RequiresRole('read')
  @Get('orgs/:organizationId/sso')
  logins(@organizationId() org: string, @CurrentViewer() viewer: Viewer) {
    return this.queries.logins(org, viewer);
  }
}
