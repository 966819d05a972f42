import type { Viewer } from '@app/platform/auth/access';
import { CurrentViewer, Public } from '@app/platform/auth/auth.guard';
import { RequiresRole, SelfMay } from '@app/platform/auth/requires-role';
import { id } from '@app/platform/http/ids.pipe';
import { OwnShape } from '@app/platform/openapi/own-shape';
import { ReadYourWrites } from '@app/platform/projector/read-your-writes';
import { Body, Controller, Delete, Get, Header, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { MemberQueries } from '../read/members.queries';
import { MemberService } from '../write/member.commands';
import { listJson } from './list-json';
import {
  ListMembersQueryDto,
  MemberSpacesQueryDto,
  MemberTeamsQueryDto,
  UpdateMemberDto,
} from './members.dto';

/** What Fastify sends a JSON body as. */
const JSON_TYPE = 'application/json; charset=utf-8';

const organizationId = () => Param('organizationId', id('organizationId'));
const userId = () => Param('userId', id('userId'));

/** Every member sees the members; admins manage them. */
@Controller('orgs/:organizationId')
export class MembersController {
  constructor(
    private readonly service: MemberService,
    private readonly queries: MemberQueries,
    private readonly views: ReadYourWrites,
  ) {}

  /** Written here from each member's JSON, kept with the member's item (`listJson`): the same bytes. */
  @RequiresRole('read')
  @Get('members')
  @Header('content-type', JSON_TYPE)
  async list(
    @organizationId() org: string,
    @Query() query: ListMembersQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return listJson(await this.queries.list(org, query, viewer));
  }

  @RequiresRole('read')
  @Get('members/:userId')
  get(@organizationId() org: string, @userId() user: string, @CurrentViewer() viewer: Viewer) {
    return this.queries.get(org, user, viewer);
  }

  /** Admins remove members; anyone leaves the organization themselves (not its last admin). */
  @RequiresRole('admin')
  @SelfMay('userId')
  @Delete('members/:userId')
  @HttpCode(204)
  async remove(@organizationId() org: string, @userId() user: string, @CurrentViewer() viewer: Viewer) {
    await this.views.wait(this.service.remove(org, user, viewer));
  }

  @RequiresRole('admin')
  @Patch('members/:userId')
  update(
    @organizationId() org: string,
    @userId() user: string,
    @Body() body: UpdateMemberDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.views.after(this.service.update(org, user, body, viewer), () =>
      this.queries.get(org, user, viewer),
    );
  }

  @RequiresRole('admin')
  @Post('members/:userId/sso')
  @HttpCode(200)
  setSso(@organizationId() org: string, @userId() user: string, @CurrentViewer() viewer: Viewer) {
    return this.views.after(this.service.setSso(org, user, viewer), () =>
      this.queries.get(org, user, viewer),
    );
  }

  @RequiresRole('read')
  @Get('members/:userId/spaces')
  listSpaces(
    @organizationId() org: string,
    @userId() user: string,
    @Query() query: MemberSpacesQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.listSpaces(org, user, query, viewer);
  }

  @RequiresRole('read')
  @Get('members/:userId/teams')
  listTeams(
    @organizationId() org: string,
    @userId() user: string,
    @Query() query: MemberTeamsQueryDto,
    @CurrentViewer() viewer: Viewer,
  ) {
    return this.queries.listTeams(org, user, query, viewer);
  }

  /** Records the caller as seen and answers visitor claims about them, signed (`/.well-known/jwks.json`). */
  @RequiresRole('read')
  @OwnShape(
    '`{serviceVisitorClaims}`: a JWT (ES256 or RS256) about the caller, verifiable with `/v1/.well-known/jwks.json`',
    'PingAnswer',
  )
  @Post('ping')
  @HttpCode(200)
  async ping(@organizationId() org: string, @CurrentViewer() viewer: Viewer) {
    const { serviceVisitorClaims } = await this.views.wait(this.service.ping(org, viewer));
    return { serviceVisitorClaims };
  }
}

/** The public keys that verify visitor claims: every configured key, so a rotation breaks nothing. */
@Controller('.well-known')
export class VisitorClaimsKeysController {
  constructor(private readonly service: MemberService) {}

  @Public()
  @Get('jwks.json')
  @OwnShape('A JWKS (RFC 7517) of the public keys that verify visitor claims')
  jwks() {
    return this.service.jwks();
  }
}
