import { Placement } from '@app/placement/placement';
import type { ServiceRole } from '@app/platform/rpc/feature-module';
import { featureModule } from '@app/platform/rpc/feature-module';
import { type DynamicModule, Module } from '@nestjs/common';
import { CollectionsController } from './http/collections.controller';
import { CollectionPresenter } from './read/collection.presenter';
import { CollectionQueries } from './read/collections.queries';
import { CollectionService } from './write/collection.commands';

@Module({})
export class CollectionsModule {
  static forRole(role: ServiceRole): DynamicModule {
    return featureModule(CollectionsModule, role, {
      controllers: [CollectionsController],
      commands: [CollectionService, Placement],
      queries: [CollectionQueries, CollectionPresenter],
    });
  }
}
