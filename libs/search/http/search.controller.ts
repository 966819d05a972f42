import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer } from '@app/platform/auth/auth.guard';
import { RequiresRole } from '@app/platform/auth/requires-role';
import { Text } from '@app/platform/http/fields';
import { id } from '@app/platform/http/ids.pipe';
import { ListQueryDto } from '@app/platform/http/pagination';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { SearchQueries, type SearchQuery } from '../read/search.queries';

export class SearchQueryDto extends ListQueryDto implements SearchQuery {
  /** A query without a word to look for finds nothing. */
  @Text(512)
  query: string;
}

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
