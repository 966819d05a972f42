import type { ServiceRole } from '@app/platform/rpc/feature-module';
import { featureModule } from '@app/platform/rpc/feature-module';
import { type DynamicModule, Module } from '@nestjs/common';
import { SsoController } from './http/sso.controller';
import { SamlProviderPresenter } from './read/saml-provider.presenter';
import { SamlProviderQueries } from './read/saml-providers.queries';
import { SamlProviderCommandHandler, SamlProviderService } from './write/saml-provider.commands';

@Module({})
export class SsoModule {
  static forRole(role: ServiceRole): DynamicModule {
    return featureModule(SsoModule, role, {
      controllers: [SsoController],
      commands: [SamlProviderCommandHandler, SamlProviderService],
      queries: [SamlProviderQueries, SamlProviderPresenter],
      remote: { command: [SamlProviderService], query: [SamlProviderQueries] },
    });
  }
}
