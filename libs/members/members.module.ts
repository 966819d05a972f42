import type { ServiceRole } from '@app/platform/rpc/feature-module';
import { featureModule } from '@app/platform/rpc/feature-module';
import { SpacePresenter } from '@app/spaces/read/space.presenter';
import { TeamPresenter } from '@app/teams/read/team.presenter';
import { type DynamicModule, Module } from '@nestjs/common';
import { MembersController, VisitorClaimsKeysController } from './http/members.controller';
import { MemberPresenter } from './read/member.presenter';
import { MemberQueries } from './read/members.queries';
import { MemberService } from './write/member.commands';
import { MemberLeavesTeams } from './write/member-teams.job';
import { VisitorClaimsKeys } from './write/visitor-claims.keys';

@Module({})
export class MembersModule {
  static forRole(role: ServiceRole): DynamicModule {
    return featureModule(MembersModule, role, {
      controllers: [MembersController, VisitorClaimsKeysController],
      commands: [MemberService, VisitorClaimsKeys],
      queries: [MemberQueries, MemberPresenter, TeamPresenter, SpacePresenter],
      jobs: [MemberLeavesTeams],
    });
  }
}
