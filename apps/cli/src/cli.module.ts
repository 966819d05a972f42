import { featureModules } from '@app/composition/catalog';
import { CoreModule } from '@app/composition/core.module';
import type { Storage } from '@app/composition/storage';
import type { Clock } from '@app/platform/clock/clock';
import type { Config } from '@app/platform/config/config';
import { type DynamicModule, Module } from '@nestjs/common';

/** The write side of every feature, without HTTP: what the CLI drives. */
@Module({})
export class CliModule {
  static forRoot(config: Config, clock: Clock, storage: Storage): DynamicModule {
    return {
      module: CliModule,
      imports: [CoreModule.forRoot(config, clock, storage, 'none'), ...featureModules('cli')],
    };
  }
}
