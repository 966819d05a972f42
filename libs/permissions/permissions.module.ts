import type { ServiceRole } from '@app/platform/rpc/feature-module';
import { featureModule } from '@app/platform/rpc/feature-module';
import { TeamPresenter } from '@app/teams/read/team.presenter';
import { type DynamicModule, Module } from '@nestjs/common';
import { CollectionPermissionsController, SpacePermissionsController } from './http/permissions.controller';
import { PermissionQueries } from './read/permissions.queries';
import { GrantService } from './write/grant.commands';

@Module({})
export class PermissionsModule {
  static forRole(role: ServiceRole): DynamicModule {
    return featureModule(PermissionsModule, role, {
      controllers: [SpacePermissionsController, CollectionPermissionsController],
      commands: [GrantService],
      queries: [PermissionQueries, TeamPresenter],
    });
  }
}
