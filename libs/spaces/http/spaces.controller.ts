import { MoveDto } from '@app/placement/position.dto';
import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer } from '@app/platform/auth/auth.guard';
import { OpenToGuests, RequiresRole } from '@app/platform/auth/requires-role';
import { IfMatch } from '@app/platform/http/etag';
import { id } from '@app/platform/http/ids.pipe';
import { ListQueryDto } from '@app/platform/http/pagination';
import { OwnShape } from '@app/platform/openapi/own-shape';
import { ReadYourWrites } from '@app/platform/projector/read-your-writes';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { SpaceQueries } from '../read/spaces.queries';
import { SpaceService } from '../write/space.commands';
import { CreateSpaceDto, GetSpaceQueryDto, TransferSpaceDto, UpdateSpaceDto } from './spaces.dto';

const spaceId = () => Param('spaceId', id('spaceId'));
const organizationId = () => Param('organizationId', id('organizationId'));

/** Each route declares the least role it needs on its space (or organization, or collection). */
@Controller()
export class SpacesController {
  constructor(
    private readonly service: SpaceService,
    private readonly queries: SpaceQueries,
    private readonly views: ReadYourWrites,
  ) {}

  @RequiresRole('read')
  @OpenToGuests()
  @Get('orgs/:organizationId/spaces')
  listInOrganization(
    @organizationId() org: string,
    @Query() query: ListQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.listInOrganization(org, query, viewer);
  }

  @RequiresRole('create')
  @Post('orgs/:organizationId/spaces')
  @HttpCode(201)
  create(@organizationId() org: string, @Body() body: CreateSpaceDto, @CurrentViewer() viewer: Viewer) {
    return this.views.after(this.service.create(org, body, viewer), (w) =>
      this.queries.get(w.spaceId, viewer),
    );
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
  update(
    @spaceId() id: string,
    @Body() body: UpdateSpaceDto,
    @CurrentViewer() viewer: Viewer,
    @IfMatch() ifMatch?: number,
  ) {
    return this.views.after(this.service.update(id, body, viewer, ifMatch), () =>
      this.queries.get(id, viewer),
    );
  }

  @RequiresRole('admin')
  @Delete('spaces/:spaceId')
  async delete(
    @spaceId() id: string,
    @CurrentViewer() viewer: Viewer,
    @Res() reply: FastifyReply,
    @IfMatch() ifMatch?: number,
  ) {
    const write = await this.views.wait(this.service.delete(id, viewer, ifMatch));
    reply.status(write.alreadyDeleted ? 204 : 205).send();
  }

  @RequiresRole('admin')
  @Post('spaces/:spaceId/restore')
  @HttpCode(200)
  restore(@spaceId() id: string, @CurrentViewer() viewer: Viewer) {
    return this.views.after(this.service.restore(id, viewer), () => this.queries.get(id, viewer));
  }

  @RequiresRole('create')
  @Post('spaces/:spaceId/duplicate')
  @HttpCode(201)
  duplicate(@spaceId() id: string, @CurrentViewer() viewer: Viewer) {
    return this.views.after(this.service.duplicate(id, viewer), (w) => this.queries.get(w.spaceId, viewer));
  }

  @RequiresRole('create')
  @Post('spaces/:spaceId/move')
  @HttpCode(200)
  move(@spaceId() id: string, @Body() body: MoveDto, @CurrentViewer() viewer: Viewer) {
    return this.views.after(this.service.move(id, body, viewer), () => this.queries.get(id, viewer));
  }

  @RequiresRole('admin')
  @Post('spaces/:spaceId/transfer')
  // The seeds specify it (content-area endpoints: "Transfer space … 200 Space"); GitBook's document has
  // a transfer for collections only.
  @OwnShape('The space, in the organization it was transferred to', 'Space')
  @HttpCode(200)
  transfer(@spaceId() id: string, @Body() body: TransferSpaceDto, @CurrentViewer() viewer: Viewer) {
    return this.views.after(this.service.transfer(id, body, viewer), () => this.queries.get(id, viewer));
  }
}
