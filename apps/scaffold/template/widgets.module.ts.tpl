import { featureModule, type ServiceRole } from '@app/platform/rpc/feature-module';
import { type DynamicModule, Module } from '@nestjs/common';
import { WidgetsController } from './http/widgets.controller';
import { WidgetPresenter } from './read/widget.presenter';
import { WidgetQueries } from './read/widgets.queries';
import { WidgetService } from './write/widget.commands';

@Module({})
export class WidgetsModule {
  static forRole(role: ServiceRole): DynamicModule {
    return featureModule(WidgetsModule, role, {
      controllers: [WidgetsController],
      commands: [WidgetService],
      queries: [WidgetQueries, WidgetPresenter],
    });
  }
}
