import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer } from '@app/platform/auth/auth.guard';
import { OpenToGuests, RequiresRole } from '@app/platform/auth/requires-role';
import { id } from '@app/platform/http/ids.pipe';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { OrganizationSearchQueries } from '../read/organization-search.queries';
import { OrganizationSearchQueryDto } from './organization-search.dto';

/** Full-text search across the spaces of an organization that the caller reaches. */
@Controller()
export class OrganizationSearchController {
  constructor(private readonly queries: OrganizationSearchQueries) {}

  /** Guests search the spaces shared with them. */
  @RequiresRole('read')
  @OpenToGuests()
  @Get('orgs/:organizationId/search')
  search(
    @Param('organizationId', id('organizationId')) organization: string,
    @Query() query: OrganizationSearchQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.search(organization, query, viewer);
  }
}
