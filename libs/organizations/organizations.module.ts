import type { ServiceRole } from '@app/platform/rpc/feature-module';
import { featureModule } from '@app/platform/rpc/feature-module';
import { type DynamicModule, Module } from '@nestjs/common';
import { EmailDomainsController, OrganizationsController } from './http/organizations.controller';
import { OrganizationPresenter } from './read/organization.presenter';
import { OrganizationQueries } from './read/organizations.queries';
import { OrganizationService } from './write/organization.commands';

@Module({})
export class OrganizationsModule {
  static forRole(role: ServiceRole): DynamicModule {
    return featureModule(OrganizationsModule, role, {
      controllers: [OrganizationsController, EmailDomainsController],
      commands: [OrganizationService],
      queries: [OrganizationQueries, OrganizationPresenter],
    });
  }
}
