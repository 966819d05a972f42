import { AuditModule } from '@app/audit/audit.module';
import { CollectionsModule } from '@app/collections/collections.module';
import { IdentityModule } from '@app/identity/identity.module';
import { OrganizationsModule } from '@app/organizations/organizations.module';
import type { ServiceRole } from '@app/platform/rpc/feature-module';
import { SpacesModule } from '@app/spaces/spaces.module';
import type { DynamicModule } from '@nestjs/common';

export { PROJECTION_LIST } from './projections';

/** Every feature library, composed for one role; the apps and the CLI all use this list. */
export function featureModules(role: ServiceRole): DynamicModule[] {
  return [
    IdentityModule.forRole(role),
    OrganizationsModule.forRole(role),
    CollectionsModule.forRole(role),
    SpacesModule.forRole(role),
    AuditModule.forRole(role),
  ];
}
