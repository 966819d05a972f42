import type { ServiceRole } from '@app/platform/rpc/feature-module';
import { featureModule } from '@app/platform/rpc/feature-module';
import { type DynamicModule, Module } from '@nestjs/common';
import { LinksController } from './http/links.controller';
import { LinkQueries } from './read/links.queries';

@Module({})
export class LinksModule {
  static forRole(role: ServiceRole): DynamicModule {
    return featureModule(LinksModule, role, {
      controllers: [LinksController],
      queries: [LinkQueries],
    });
  }
}
