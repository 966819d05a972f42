import type { ServiceRole } from '@app/platform/rpc/feature-module';
import { featureModule } from '@app/platform/rpc/feature-module';
import { type DynamicModule, Module } from '@nestjs/common';
import { TranslationsController } from './http/translations.controller';
import { TranslationPresenter } from './read/translation.presenter';
import { TranslationQueries } from './read/translations.queries';
import { TranslationService } from './write/translation.commands';

@Module({})
export class TranslationsModule {
  static forRole(role: ServiceRole): DynamicModule {
    return featureModule(TranslationsModule, role, {
      controllers: [TranslationsController],
      commands: [TranslationService],
      queries: [TranslationQueries, TranslationPresenter],
    });
  }
}
