import { AuditModule } from '@app/audit/audit.module';
import { auditProjection } from '@app/audit/read/audit.projection';
import { CollectionsModule } from '@app/collections/collections.module';
import { collectionProjection } from '@app/collections/read/collection.projection';
import { IdentityModule } from '@app/identity/identity.module';
import { identityProjection } from '@app/identity/read/identity.projection';
import { OrganizationsModule } from '@app/organizations/organizations.module';
import { organizationProjection } from '@app/organizations/read/organization.projection';
import type { Projection } from '@app/platform/projector/projection';
import type { ServiceRole } from '@app/platform/rpc/feature-module';
import { spaceProjection } from '@app/spaces/read/space.projection';
import { SpacesModule } from '@app/spaces/spaces.module';
import type { DynamicModule } from '@nestjs/common';

/** Every read model of the product; the projector, the rebuild CLI and the tests all use this list. */
export const PROJECTION_LIST: Projection[] = [
  identityProjection,
  organizationProjection,
  collectionProjection,
  spaceProjection,
  auditProjection,
];

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
