import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer } from '@app/platform/auth/auth.guard';
import { RequiresRole } from '@app/platform/auth/requires-role';
import { IfMatch } from '@app/platform/http/etag';
import { id } from '@app/platform/http/ids.pipe';
import { ListQueryDto } from '@app/platform/http/pagination';
import { OwnShape } from '@app/platform/openapi/own-shape';
import { ReadYourWrites } from '@app/platform/projector/read-your-writes';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { WidgetQueries } from '../read/widgets.queries';
import { WidgetService } from '../write/widget.commands';
import { CreateWidgetDto, UpdateWidgetDto } from './widgets.dto';

const widgetId = () => Param('widgetId', id('widgetId'));
const organizationId = () => Param('organizationId', id('organizationId'));
/** Until these routes take GitBook's paths and shapes: what they answer (name a schema once one applies). */
const ITEM = 'A __label__ (`object`, `id`, `title`, `permissions`): a shape of this API, no GitBook schema yet';

/** Each route declares the least role it needs on its __label__ (or organization). */
@Controller()
export class WidgetsController {
  constructor(
    private readonly service: WidgetService,
    private readonly queries: WidgetQueries,
    private readonly views: ReadYourWrites,
  ) {}

  @RequiresRole('read')
  @Get('orgs/:organizationId/__names__')
  @OwnShape(`A list (\`{items, next?, count}\`) of: ${ITEM}`)
  list(@organizationId() org: string, @Query() query: ListQueryDto, @CurrentViewer() viewer: Viewer) {
    return this.queries.list(org, query, viewer);
  }

  @RequiresRole('create')
  @Post('orgs/:organizationId/__names__')
  @OwnShape(ITEM)
  @HttpCode(201)
  create(@organizationId() org: string, @Body() body: CreateWidgetDto, @CurrentViewer() viewer: Viewer) {
    return this.views.after(this.service.create(org, body, viewer), (w) => this.queries.get(w.widgetId, viewer));
  }

  @RequiresRole('read')
  @Get('__names__/:widgetId')
  @OwnShape(ITEM)
  get(@widgetId() id: string, @CurrentViewer() viewer: Viewer) {
    return this.queries.get(id, viewer);
  }

  @RequiresRole('create')
  @Patch('__names__/:widgetId')
  @OwnShape(ITEM)
  update(
    @widgetId() id: string,
    @Body() body: UpdateWidgetDto,
    @CurrentViewer() viewer: Viewer,
    @IfMatch() ifMatch?: number,
  ) {
    return this.views.after(this.service.update(id, body, viewer, ifMatch), () => this.queries.get(id, viewer));
  }

  @RequiresRole('admin')
  @Delete('__names__/:widgetId')
  @OwnShape('Nothing: 204 once the __label__ is gone from the views')
  @HttpCode(204)
  async delete(@widgetId() id: string, @CurrentViewer() viewer: Viewer, @IfMatch() ifMatch?: number) {
    await this.views.wait(this.service.delete(id, viewer, ifMatch));
  }
}
