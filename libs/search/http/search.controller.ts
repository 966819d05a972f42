import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer } from '@app/platform/auth/auth.guard';
import { RequiresRole } from '@app/platform/auth/requires-role';
import { id } from '@app/platform/http/ids.pipe';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { SearchQueries } from '../read/search.queries';
import { SearchQueryDto } from './search.dto';

/** Full-text search in a space's current content. */
@Controller()
export class SearchController {
  constructor(private readonly queries: SearchQueries) {}

  @RequiresRole('read')
  @Get('spaces/:spaceId/search')
  search(
    @Param('spaceId', id('spaceId')) space: string,
    @Query() query: SearchQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.search(space, query, viewer);
  }
}
