import { MoveDto, TransferDto } from '@app/placement/position.dto';
import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer } from '@app/platform/auth/auth.guard';
import { OpenToGuests, RequiresRole } from '@app/platform/auth/requires-role';
import { IfMatch } from '@app/platform/http/etag';
import { id } from '@app/platform/http/ids.pipe';
import { ReadYourWrites } from '@app/platform/projector/read-your-writes';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CollectionQueries } from '../read/collections.queries';
import { CollectionService } from '../write/collection.commands';
import { CreateCollectionDto, ListCollectionsQueryDto, UpdateCollectionDto } from './collections.dto';

const collectionId = () => Param('collectionId', id('collectionId'));
const organizationId = () => Param('organizationId', id('organizationId'));

@Controller()
export class CollectionsController {
  constructor(
    private readonly service: CollectionService,
    private readonly queries: CollectionQueries,
    private readonly views: ReadYourWrites,
  ) {}

  @RequiresRole('read')
  @OpenToGuests()
  @Get('orgs/:organizationId/collections')
  list(
    @organizationId() org: string,
    @Query() query: ListCollectionsQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.list(org, query, viewer);
  }

  @RequiresRole('create')
  @Post('orgs/:organizationId/collections')
  @HttpCode(201)
  create(@organizationId() org: string, @Body() body: CreateCollectionDto, @CurrentViewer() viewer: Viewer) {
    const write = this.service.create(org, body, viewer);
    return this.views.after(write, (w) => this.queries.get(w.collectionId, viewer));
  }

  @RequiresRole('read')
  @Get('collections/:collectionId')
  get(@collectionId() id: string, @CurrentViewer() viewer: Viewer) {
    return this.queries.get(id, viewer);
  }

  @RequiresRole('admin')
  @Patch('collections/:collectionId')
  update(
    @collectionId() id: string,
    @Body() body: UpdateCollectionDto,
    @CurrentViewer() viewer: Viewer,
    @IfMatch() ifMatch?: number,
  ) {
    return this.views.after(this.service.update(id, body, viewer, ifMatch), () =>
      this.queries.get(id, viewer),
    );
  }

  @RequiresRole('admin')
  @Delete('collections/:collectionId')
  @HttpCode(205)
  async delete(
    @collectionId() id: string,
    @CurrentViewer() viewer: Viewer,
    @IfMatch() ifMatch?: number,
  ): Promise<void> {
    await this.views.wait(this.service.delete(id, viewer, ifMatch));
  }

  @RequiresRole('admin')
  @Post('collections/:collectionId/move')
  @HttpCode(200)
  move(@collectionId() id: string, @Body() body: MoveDto, @CurrentViewer() viewer: Viewer) {
    return this.views.after(this.service.move(id, body, viewer), () => this.queries.get(id, viewer));
  }

  @RequiresRole('admin')
  @Post('collections/:collectionId/transfer')
  @HttpCode(200)
  transfer(@collectionId() id: string, @Body() body: TransferDto, @CurrentViewer() viewer: Viewer) {
    return this.views.after(this.service.transfer(id, body, viewer), () => this.queries.get(id, viewer));
  }
}
