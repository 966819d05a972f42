import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer } from '@app/platform/auth/auth.guard';
import { RequiresRole } from '@app/platform/auth/requires-role';
import { id } from '@app/platform/http/ids.pipe';
import { ListQueryDto } from '@app/platform/http/pagination';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { CommenterQueries } from '../read/commenters.queries';

const spaceId = () => Param('spaceId', id('spaceId'));
const changeRequestId = () => Param('changeRequestId', id('changeRequestId'));

/** Who commented or replied in a space, or in one of its change requests. */
@Controller('spaces/:spaceId')
export class CommentersController {
  constructor(private readonly queries: CommenterQueries) {}

  @RequiresRole('read')
  @Get('commenters')
  inSpace(@spaceId() space: string, @Query() query: ListQueryDto, @CurrentViewer() viewer: Viewer) {
    return this.queries.list(space, undefined, query, viewer);
  }

  @RequiresRole('read')
  @Get('change-requests/:changeRequestId/commenters')
  inChangeRequest(
    @spaceId() space: string,
    @changeRequestId() cr: string,
    @Query() query: ListQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.list(space, cr, query, viewer);
  }
}
