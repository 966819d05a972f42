import type { ServiceRole } from '@app/platform/rpc/feature-module';
import { featureModule } from '@app/platform/rpc/feature-module';
import { type DynamicModule, Module } from '@nestjs/common';
import { SamlSignInController } from './http/saml-sign-in.controller';
import { SsoController } from './http/sso.controller';
import { SamlProviderPresenter } from './read/saml-provider.presenter';
import { SamlProviderQueries } from './read/saml-providers.queries';
import { SamlProviderService } from './write/saml-provider.commands';
import { SamlSignInService } from './write/saml-sign-in.service';
import { SsoDefaultTeam } from './write/sso-default-team.job';

@Module({})
export class SsoModule {
  static forRole(role: ServiceRole): DynamicModule {
    return featureModule(SsoModule, role, {
      controllers: [SsoController, SamlSignInController],
      commands: [SamlProviderService, SamlSignInService],
      queries: [SamlProviderQueries, SamlProviderPresenter],
      jobs: [SsoDefaultTeam],
    });
  }
}
