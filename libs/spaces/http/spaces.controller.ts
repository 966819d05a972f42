import { MoveDto } from '@app/collections';
import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer } from '@app/platform/auth/auth.guard';
import { RequiresRole } from '@app/platform/auth/requires-role';
import { IfMatch } from '@app/platform/http/etag';
import { id } from '@app/platform/http/ids.pipe';
import { ListQueryDto } from '@app/platform/http/pagination';
import { ReadYourWrites } from '@app/platform/projector/read-your-writes';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { SpaceQueries } from '../read/spaces.queries';
import { SpaceService } from '../write/space.commands';
import { CreateSpaceDto, GetSpaceQueryDto, TransferSpaceDto, UpdateSpaceDto } from './spaces.dto';

const spaceId = () => Param('spaceId', id('spaceId'));

@Controller()
export class SpacesController {
  constructor(
    private readonly service: SpaceService,
    private readonly queries: SpaceQueries,
    private readonly views: ReadYourWrites,
  ) {}

  @RequiresRole('read')
  @Get('orgs/:organizationId/spaces')
  listInOrganization(
    @Param('organizationId', id('organizationId')) org: string,
    @Query() query: ListQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.listInOrganization(org, query, viewer);
  }

  @RequiresRole('create')
  @Post('orgs/:organizationId/spaces')
  @HttpCode(201)
  async create(
    @Param('organizationId', id('organizationId')) org: string,
    @Body() body: CreateSpaceDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    const write = await this.service.create(org, body, viewer);
    return this.views.after(write, () => this.queries.get(write.spaceId, viewer));
  }

  @RequiresRole('read')
  @Get('collections/:collectionId/spaces')
  listInCollection(
    @Param('collectionId', id('collectionId')) collectionId: string,
    @Query() query: ListQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.listInCollection(collectionId, query, viewer);
  }

  /** `shareKey` is accepted for compatibility; members are authorized by their role. */
  @RequiresRole('read')
  @Get('spaces/:spaceId')
  get(@spaceId() id: string, @Query() _query: GetSpaceQueryDto, @CurrentViewer() viewer: Viewer) {
    return this.queries.get(id, viewer);
  }

  @RequiresRole('create')
  @Patch('spaces/:spaceId')
  async update(
    @spaceId() id: string,
    @Body() body: UpdateSpaceDto,
    @CurrentViewer() viewer: Viewer,
    @IfMatch() ifMatch?: number,
  ) {
    const write = await this.service.update(id, body, viewer, ifMatch);
    return this.views.after(write, () => this.queries.get(id, viewer));
  }

  @RequiresRole('admin')
  @Delete('spaces/:spaceId')
  async delete(
    @spaceId() id: string,
    @CurrentViewer() viewer: Viewer,
    @Res() reply: FastifyReply,
    @IfMatch() ifMatch?: number,
  ) {
    const write = await this.service.delete(id, viewer, ifMatch);
    await this.views.wait(write);
    reply.status(write.alreadyDeleted ? 204 : 205).send();
  }

  @RequiresRole('admin')
  @Post('spaces/:spaceId/restore')
  @HttpCode(200)
  async restore(@spaceId() id: string, @CurrentViewer() viewer: Viewer) {
    const write = await this.service.restore(id, viewer);
    return this.views.after(write, () => this.queries.get(id, viewer));
  }

  @RequiresRole('create')
  @Post('spaces/:spaceId/duplicate')
  @HttpCode(201)
  async duplicate(@spaceId() id: string, @CurrentViewer() viewer: Viewer) {
    const write = await this.service.duplicate(id, viewer);
    return this.views.after(write, () => this.queries.get(write.spaceId, viewer));
  }

  @RequiresRole('create')
  @Post('spaces/:spaceId/move')
  @HttpCode(200)
  async move(@spaceId() id: string, @Body() body: MoveDto, @CurrentViewer() viewer: Viewer) {
    const write = await this.service.move(id, body, viewer);
    return this.views.after(write, () => this.queries.get(id, viewer));
  }

  @RequiresRole('admin')
  @Post('spaces/:spaceId/transfer')
  @HttpCode(200)
  async transfer(@spaceId() id: string, @Body() body: TransferSpaceDto, @CurrentViewer() viewer: Viewer) {
    const write = await this.service.transfer(id, body, viewer);
    return this.views.after(write, () => this.queries.get(id, viewer));
  }
}
