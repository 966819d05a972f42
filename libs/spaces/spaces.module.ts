import { Placement } from '@app/placement/placement';
import type { ServiceRole } from '@app/platform/rpc/feature-module';
import { featureModule } from '@app/platform/rpc/feature-module';
import { type DynamicModule, Module } from '@nestjs/common';
import { SpacesController } from './http/spaces.controller';
import { SpacePresenter } from './read/space.presenter';
import { SpaceQueries } from './read/spaces.queries';
import { SpaceService } from './write/space.commands';
import { SpacePurges } from './write/space-purge.job';

@Module({})
export class SpacesModule {
  static forRole(role: ServiceRole): DynamicModule {
    return featureModule(SpacesModule, role, {
      controllers: [SpacesController],
      commands: [SpaceService, Placement],
      queries: [SpaceQueries, SpacePresenter],
      jobs: [SpacePurges],
    });
  }
}
