import type { ServiceRole } from '@app/platform/feature/service-role';
import { AggregatesModule } from '@app/platform/write/aggregates.module';
import type { DynamicModule } from '@nestjs/common';
import { FEATURES } from './features';

export { FEATURES, PROJECTION_LIST } from './features';

/**
 * Every feature library's Nest module, composed for one role, and the handlers of the aggregates the
 * manifests declare; the apps and the CLI all use this.
 */
export function featureModules(role: ServiceRole): Promise<DynamicModule>[] {
  return [
    ...FEATURES.map(async (feature) => (await feature.module()).forRole(role, FEATURES)),
    Promise.resolve(AggregatesModule.forRole(role, FEATURES)),
  ];
}
