import type { ServiceRole } from '@app/platform/rpc/feature-module';
import { featureModule } from '@app/platform/rpc/feature-module';
import { type DynamicModule, Module } from '@nestjs/common';
import { OrganizationSearchController } from './http/organization-search.controller';
import { SearchController } from './http/search.controller';
import { OrganizationSearchQueries } from './read/organization-search.queries';
import { SearchQueries } from './read/search.queries';

@Module({})
export class SearchModule {
  static forRole(role: ServiceRole): DynamicModule {
    return featureModule(SearchModule, role, {
      controllers: [SearchController, OrganizationSearchController],
      queries: [SearchQueries, OrganizationSearchQueries],
    });
  }
}
