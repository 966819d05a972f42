import type { ServiceRole } from '@app/platform/rpc/feature-module';
import { featureModule } from '@app/platform/rpc/feature-module';
import { type DynamicModule, Module } from '@nestjs/common';
import { TeamsController } from './http/teams.controller';
import { TeamPresenter } from './read/team.presenter';
import { TeamQueries } from './read/teams.queries';
import { TeamService } from './write/team.commands';

@Module({})
export class TeamsModule {
  static forRole(role: ServiceRole): DynamicModule {
    return featureModule(TeamsModule, role, {
      controllers: [TeamsController],
      commands: [TeamService],
      queries: [TeamQueries, TeamPresenter],
    });
  }
}
