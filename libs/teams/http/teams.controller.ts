import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer } from '@app/platform/auth/auth.guard';
import { OwnersMay, RequiresRole } from '@app/platform/auth/requires-role';
import type { OwnerGrant } from '@app/platform/feature/route-scope';
import { id } from '@app/platform/http/ids.pipe';
import { ListQueryDto } from '@app/platform/http/pagination';
import { ReadYourWrites } from '@app/platform/projector/read-your-writes';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Put, Query } from '@nestjs/common';
import { TEAM_MEMBERS } from '../read/team.projection';
import { TeamQueries } from '../read/teams.queries';
import { TeamService } from '../write/team.commands';
import {
  CreateTeamDto,
  ListTeamsQueryDto,
  SetTeamMemberDto,
  UpdateTeamDto,
  UpdateTeamMembersDto,
} from './teams.dto';

const organizationId = () => Param('organizationId', id('organizationId'));
const teamId = () => Param('teamId', id('teamId'));
const userId = () => Param('userId', id('userId'));

/** A team's owners rename it and manage its members, whatever their role in the organization. */
const TEAM_OWNERS: OwnerGrant = { param: 'teamId', collection: TEAM_MEMBERS, role: 'owner' };

/** Every member sees the teams; organization admins manage them, and a team's owners manage theirs. */
@Controller('orgs/:organizationId/teams')
export class TeamsController {
  constructor(
    private readonly service: TeamService,
    private readonly queries: TeamQueries,
    private readonly views: ReadYourWrites,
  ) {}

  @RequiresRole('read')
  @Get()
  list(@organizationId() org: string, @Query() query: ListTeamsQueryDto, @CurrentViewer() viewer: Viewer) {
    return this.queries.list(org, query, viewer);
  }

  @RequiresRole('admin')
  @Put()
  @HttpCode(201)
  create(@organizationId() org: string, @Body() body: CreateTeamDto, @CurrentViewer() viewer: Viewer) {
    return this.views.after(this.service.create(org, body, viewer), (w) =>
      this.queries.get(org, w.teamId, viewer),
    );
  }

  @RequiresRole('read')
  @Get(':teamId')
  get(@organizationId() org: string, @teamId() team: string, @CurrentViewer() viewer: Viewer) {
    return this.queries.get(org, team, viewer);
  }

  @RequiresRole('admin')
  @OwnersMay(TEAM_OWNERS)
  @Patch(':teamId')
  update(
    @organizationId() org: string,
    @teamId() team: string,
    @Body() body: UpdateTeamDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.views.after(this.service.rename(org, team, body, viewer), () =>
      this.queries.get(org, team, viewer),
    );
  }

  @RequiresRole('admin')
  @Delete(':teamId')
  @HttpCode(204)
  async delete(@organizationId() org: string, @teamId() team: string, @CurrentViewer() viewer: Viewer) {
    await this.views.wait(this.service.delete(org, team, viewer));
  }

  @RequiresRole('read')
  @Get(':teamId/members')
  listMembers(
    @organizationId() org: string,
    @teamId() team: string,
    @Query() query: ListQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.listMembers(org, team, query, viewer);
  }

  @RequiresRole('admin')
  @OwnersMay(TEAM_OWNERS)
  @Put(':teamId/members')
  @HttpCode(204)
  async updateMembers(
    @organizationId() org: string,
    @teamId() team: string,
    @Body() body: UpdateTeamMembersDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    await this.views.wait(this.service.updateMembers(org, team, body, viewer));
  }

  @RequiresRole('admin')
  @OwnersMay(TEAM_OWNERS)
  @Put(':teamId/members/:userId')
  @HttpCode(204)
  async setMember(
    @organizationId() org: string,
    @teamId() team: string,
    @userId() user: string,
    @Body() body: SetTeamMemberDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    await this.views.wait(this.service.setMember(org, team, user, body, viewer));
  }

  @RequiresRole('admin')
  @OwnersMay(TEAM_OWNERS)
  @Delete(':teamId/members/:userId')
  @HttpCode(204)
  async removeMember(
    @organizationId() org: string,
    @teamId() team: string,
    @userId() user: string,
    @CurrentViewer() viewer: Viewer,
  ) {
    await this.views.wait(this.service.removeMember(org, team, user, viewer));
  }
}
