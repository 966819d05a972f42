import type { FeatureManifest } from '@app/platform/feature/feature';
import type { ServiceRole } from '@app/platform/rpc/feature-module';
import { featureModule } from '@app/platform/rpc/feature-module';
import { type DynamicModule, Module } from '@nestjs/common';
import { AUDIT_CATALOG, AuditCatalog } from './domain/audited-events';
import { AuditController } from './http/audit.controller';
import { AuditPresenter } from './read/audit.presenter';
import { AuditQueries } from './read/audit.queries';

/** The organization audit log: read-only over HTTP; written by `auditProjection`. */
@Module({})
export class AuditModule {
  static forRole(role: ServiceRole, features: readonly FeatureManifest[]): DynamicModule {
    return featureModule(AuditModule, role, {
      controllers: [AuditController],
      queries: [
        AuditQueries,
        AuditPresenter,
        { provide: AUDIT_CATALOG, useValue: new AuditCatalog(features) },
      ],
    });
  }
}
