import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer } from '@app/platform/auth/auth.guard';
import { RequiresRole } from '@app/platform/auth/requires-role';
import { id } from '@app/platform/http/ids.pipe';
import { ListQueryDto } from '@app/platform/http/pagination';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { OrganizationQueries } from '../read/organizations.queries';

@Controller('orgs')
export class OrganizationsController {
  constructor(private readonly queries: OrganizationQueries) {}

  @RequiresRole('read')
  @Get()
  list(@CurrentViewer() viewer: Viewer, @Query() query: ListQueryDto) {
    return this.queries.listForViewer(viewer, query);
  }

  @RequiresRole('read')
  @Get(':organizationId')
  get(
    @Param('organizationId', id('organizationId')) organizationId: string,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.get(organizationId, viewer);
  }
}
