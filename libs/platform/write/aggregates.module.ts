import { type DynamicModule, Module } from '@nestjs/common';
import { aggregatesOf, type FeatureManifest } from '../feature/feature';
import type { ServiceRole } from '../feature/service-role';
import { featureModule } from '../rpc/feature-module';
import { aggregateHandler } from './aggregate-handler';

/**
 * The command handlers of every aggregate the manifests declare, one each, in the processes that run
 * commands (standalone, command replicas, the worker, the CLI).
 */
@Module({})
export class AggregatesModule {
  static forRole(role: ServiceRole, features: readonly FeatureManifest[]): DynamicModule {
    return featureModule(AggregatesModule, role, { commands: aggregatesOf(features).map(aggregateHandler) });
  }
}
