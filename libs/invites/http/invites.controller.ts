import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer } from '@app/platform/auth/auth.guard';
import { OpenToGuests, OpenToNonMembers, RequiresRole } from '@app/platform/auth/requires-role';
import { id } from '@app/platform/http/ids.pipe';
import { ListQueryDto } from '@app/platform/http/pagination';
import { ReadYourWrites } from '@app/platform/projector/read-your-writes';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { InviteQueries } from '../read/invites.queries';
import { InviteService } from '../write/invite.commands';
import { CreateInviteLinkDto, InviteUsersDto, UpdateInviteLinkDto } from './invites.dto';

const organizationId = () => Param('organizationId', id('organizationId'));
const inviteId = () => Param('inviteId', id('inviteId'));

/** Admins manage invite links and invite people; anyone signed in joins with a link's id. */
@Controller('orgs/:organizationId')
export class InvitesController {
  constructor(
    private readonly service: InviteService,
    private readonly queries: InviteQueries,
    private readonly views: ReadYourWrites,
  ) {}

  @RequiresRole('admin')
  @Get('link-invites')
  list(@organizationId() org: string, @Query() query: ListQueryDto, @CurrentViewer() viewer: Viewer) {
    return this.queries.list(org, query, viewer);
  }

  @RequiresRole('admin')
  @Post('link-invites')
  @HttpCode(201)
  create(@organizationId() org: string, @Body() body: CreateInviteLinkDto, @CurrentViewer() viewer: Viewer) {
    return this.views.after(this.service.create(org, body, viewer), (w) =>
      this.queries.get(org, w.inviteId, viewer),
    );
  }

  @RequiresRole('admin')
  @Get('link-invites/:inviteId')
  get(@organizationId() org: string, @inviteId() invite: string, @CurrentViewer() viewer: Viewer) {
    return this.queries.get(org, invite, viewer);
  }

  @RequiresRole('admin')
  @Patch('link-invites/:inviteId')
  update(
    @organizationId() org: string,
    @inviteId() invite: string,
    @Body() body: UpdateInviteLinkDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.views.after(this.service.update(org, invite, body, viewer), () =>
      this.queries.get(org, invite, viewer),
    );
  }

  /** 205 when the link was deleted, 204 when there was none (GitBook's two answers). */
  @RequiresRole('admin')
  @Delete('link-invites/:inviteId')
  @HttpCode(205)
  async delete(
    @organizationId() org: string,
    @inviteId() invite: string,
    @CurrentViewer() viewer: Viewer,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { existed } = await this.views.wait(this.service.delete(org, invite, viewer));
    if (!existed) reply.status(204);
  }

  @RequiresRole('admin')
  @Post('invites')
  @HttpCode(200)
  async inviteUsers(
    @organizationId() org: string,
    @Body() body: InviteUsersDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    const { users, invited } = await this.views.wait(this.service.inviteUsers(org, body, viewer));
    return { users, invited };
  }

  /** The handler decides for non-members and guests. */
  @RequiresRole('read')
  @OpenToNonMembers()
  @OpenToGuests()
  @Post('invites/:inviteId')
  @HttpCode(200)
  async join(@organizationId() org: string, @inviteId() invite: string, @CurrentViewer() viewer: Viewer) {
    await this.views.wait(this.service.join(org, invite, viewer));
    return {};
  }
}
