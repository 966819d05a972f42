import type { Clock } from '@app/platform/clock/clock';
import type { Config } from '@app/platform/config/config';
import type { LiveProjector } from '@app/platform/projector/projector';
import { type DynamicModule, Module } from '@nestjs/common';
import { featureModules } from './catalog';
import { CoreModule } from './core.module';
import { HealthController } from './health.controller';
import { RUNTIME_PARTS, Runtime } from './runtime';
import type { Storage } from './storage';

/** Everything in one process: the standalone product. */
@Module({})
export class StandaloneModule {
  static forRoot(
    config: Config,
    clock: Clock,
    storage: Storage,
    liveProjector?: LiveProjector,
  ): DynamicModule {
    return {
      module: StandaloneModule,
      imports: [
        CoreModule.forRoot(config, clock, storage, 'projector', liveProjector),
        ...featureModules('standalone'),
      ],
      controllers: [HealthController],
      providers: [Runtime, { provide: RUNTIME_PARTS, useValue: ['projector', 'bootstrap', 'worker'] }],
    };
  }
}
