import type { ServiceRole } from '@app/platform/rpc/feature-module';
import { featureModule } from '@app/platform/rpc/feature-module';
import { type DynamicModule, Module } from '@nestjs/common';
import { AuditController } from './http/audit.controller';
import { AuditPresenter } from './http/audit.presenter';
import { AuditQueries } from './read/audit.queries';

/** The organization audit log: read-only over HTTP; written by `auditProjection`. */
@Module({})
export class AuditModule {
  static forRole(role: ServiceRole): DynamicModule {
    return featureModule(AuditModule, role, {
      controllers: [AuditController],
      queries: [AuditQueries, AuditPresenter],
      remote: { query: [AuditQueries] },
    });
  }
}
