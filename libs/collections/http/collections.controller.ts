import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer } from '@app/platform/auth/auth.guard';
import { RequiresRole } from '@app/platform/auth/requires-role';
import { IfMatch } from '@app/platform/http/etag';
import { id } from '@app/platform/http/ids.pipe';
import { ReadYourWrites } from '@app/platform/projector/read-your-writes';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CollectionQueries } from '../read/collections.queries';
import { CollectionService } from '../write/collection.commands';
import { CreateCollectionDto, ListCollectionsQueryDto, UpdateCollectionDto } from './collections.dto';
import { MoveDto, TransferDto } from './position.dto';

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
  async create(
    @organizationId() org: string,
    @Body() body: CreateCollectionDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    const write = await this.service.create(org, body, viewer);
    return this.views.after(write, () => this.queries.get(write.collectionId, viewer));
  }

  @RequiresRole('read')
  @Get('collections/:collectionId')
  get(@collectionId() id: string, @CurrentViewer() viewer: Viewer) {
    return this.queries.get(id, viewer);
  }

  @RequiresRole('admin')
  @Patch('collections/:collectionId')
  async update(
    @collectionId() id: string,
    @Body() body: UpdateCollectionDto,
    @CurrentViewer() viewer: Viewer,
    @IfMatch() ifMatch?: number,
  ) {
    const write = await this.service.update(id, body, viewer, ifMatch);
    return this.views.after(write, () => this.queries.get(id, viewer));
  }

  @RequiresRole('admin')
  @Delete('collections/:collectionId')
  @HttpCode(205)
  async delete(
    @collectionId() id: string,
    @CurrentViewer() viewer: Viewer,
    @IfMatch() ifMatch?: number,
  ): Promise<void> {
    await this.views.wait(await this.service.delete(id, viewer, ifMatch));
  }

  @RequiresRole('admin')
  @Post('collections/:collectionId/move')
  @HttpCode(200)
  async move(@collectionId() id: string, @Body() body: MoveDto, @CurrentViewer() viewer: Viewer) {
    const write = await this.service.move(id, body, viewer);
    return this.views.after(write, () => this.queries.get(id, viewer));
  }

  @RequiresRole('admin')
  @Post('collections/:collectionId/transfer')
  @HttpCode(200)
  async transfer(@collectionId() id: string, @Body() body: TransferDto, @CurrentViewer() viewer: Viewer) {
    const write = await this.service.transfer(id, body, viewer);
    return this.views.after(write, () => this.queries.get(id, viewer));
  }
}
