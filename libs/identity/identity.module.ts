import type { ServiceRole } from '@app/platform/rpc/feature-module';
import { featureModule } from '@app/platform/rpc/feature-module';
import { type DynamicModule, Module } from '@nestjs/common';
import { IdentityService } from './write/identity.commands';

@Module({})
export class IdentityModule {
  static forRole(role: ServiceRole): DynamicModule {
    return featureModule(IdentityModule, role, { commands: [IdentityService] });
  }
}
