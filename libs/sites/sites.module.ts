import { featureModule, type ServiceRole } from '@app/platform/rpc/feature-module';
import { type DynamicModule, Module } from '@nestjs/common';
import { SitesController } from './http/sites.controller';
import { SitePresenter } from './read/site.presenter';
import { SiteQueries } from './read/sites.queries';
import { SiteService } from './write/site.commands';

@Module({})
export class SitesModule {
  static forRole(role: ServiceRole): DynamicModule {
    return featureModule(SitesModule, role, {
      controllers: [SitesController],
      commands: [SiteService],
      queries: [SiteQueries, SitePresenter],
    });
  }
}
