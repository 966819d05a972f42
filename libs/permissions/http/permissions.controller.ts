import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer } from '@app/platform/auth/auth.guard';
import { RequiresRole } from '@app/platform/auth/requires-role';
import type { Role } from '@app/platform/domain/roles';
import { id } from '@app/platform/http/ids.pipe';
import { ListQueryDto } from '@app/platform/http/pagination';
import { ReadYourWrites } from '@app/platform/projector/read-your-writes';
import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Res,
  type Type,
} from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { PermissionQueries } from '../read/permissions.queries';
import { type ContentKind, GrantService } from '../write/grant.commands';
import { AggregateQueryDto, InviteDto, SetPermissionDto } from './permissions.dto';

/**
 * GitBook's eight permission operations of a space or a collection, declared once: `path` is the
 * resource's route, `param` its id, `manage` the effective role that manages its access (and sees who has
 * it): what the resource's `permissions.admin` says.
 */
function permissionsController(kind: ContentKind, path: string, param: string, manage: Role): Type<unknown> {
  const resource = () => Param(param, id(param));
  const userId = () => Param('userId', id('userId'));
  const teamId = () => Param('teamId', id('teamId'));

  @Controller(`${path}/:${param}/permissions`)
  class PermissionsController {
    constructor(
      readonly service: GrantService,
      readonly queries: PermissionQueries,
      readonly views: ReadYourWrites,
    ) {}

    @RequiresRole(manage)
    @Post()
    @HttpCode(204)
    async invite(@resource() ref: string, @Body() body: InviteDto, @CurrentViewer() viewer: Viewer) {
      await this.views.wait(this.service.invite(kind, ref, body, viewer));
    }

    @RequiresRole(manage)
    @Get('users')
    users(@resource() ref: string, @Query() query: ListQueryDto, @CurrentViewer() viewer: Viewer) {
      return this.queries.users(kind, ref, query, viewer);
    }

    @RequiresRole(manage)
    @Patch('users/:userId')
    @HttpCode(204)
    async setUser(
      @resource() ref: string,
      @userId() user: string,
      @Body() body: SetPermissionDto,
      @CurrentViewer() viewer: Viewer,
    ) {
      await this.views.wait(this.service.set(kind, ref, 'user', user, body, viewer));
    }

    /** 205 when the user's grant was taken away, 204 when they held none here. */
    @RequiresRole(manage)
    @Delete('users/:userId')
    async removeUser(
      @resource() ref: string,
      @userId() user: string,
      @CurrentViewer() viewer: Viewer,
      @Res() reply: FastifyReply,
    ) {
      const write = await this.views.wait(this.service.remove(kind, ref, 'user', user, viewer));
      reply.status(write.removed ? 205 : 204).send();
    }

    @RequiresRole(manage)
    @Get('teams')
    teams(@resource() ref: string, @Query() query: ListQueryDto, @CurrentViewer() viewer: Viewer) {
      return this.queries.teamGrants(kind, ref, query, viewer);
    }

    @RequiresRole(manage)
    @Patch('teams/:teamId')
    @HttpCode(204)
    async setTeam(
      @resource() ref: string,
      @teamId() team: string,
      @Body() body: SetPermissionDto,
      @CurrentViewer() viewer: Viewer,
    ) {
      await this.views.wait(this.service.set(kind, ref, 'team', team, body, viewer));
    }

    /** 205 when the team's grant was taken away, 204 when it held none here. */
    @RequiresRole(manage)
    @Delete('teams/:teamId')
    async removeTeam(
      @resource() ref: string,
      @teamId() team: string,
      @CurrentViewer() viewer: Viewer,
      @Res() reply: FastifyReply,
    ) {
      const write = await this.views.wait(this.service.remove(kind, ref, 'team', team, viewer));
      reply.status(write.removed ? 205 : 204).send();
    }

    @RequiresRole(manage)
    @Get('aggregate')
    aggregate(@resource() ref: string, @Query() query: AggregateQueryDto, @CurrentViewer() viewer: Viewer) {
      return this.queries.aggregate(kind, ref, query, viewer);
    }
  }
  Object.defineProperty(PermissionsController, 'name', {
    value: `${kind[0].toUpperCase()}${kind.slice(1)}PermissionsController`,
  });
  return PermissionsController;
}

/** Managing a space needs `create` there (its `permissions.admin`); a collection, `admin`. */
export const SpacePermissionsController = permissionsController('space', 'spaces', 'spaceId', 'create');
export const CollectionPermissionsController = permissionsController(
  'collection',
  'collections',
  'collectionId',
  'admin',
);
