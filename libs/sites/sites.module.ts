import { featureModule, type ServiceRole } from '@app/platform/rpc/feature-module';
import { type DynamicModule, Module } from '@nestjs/common';
import { PublishingAuthController } from './http/publishing-auth.controller';
import { ShareLinksController } from './http/share-links.controller';
import { SitesController } from './http/sites.controller';
import { PublishingAuthQueries } from './read/publishing-auth.queries';
import { ShareLinkKeys } from './read/share-link.keys';
import { ShareLinkPresenter } from './read/share-link.presenter';
import { ShareLinkQueries } from './read/share-links.queries';
import { SitePresenter } from './read/site.presenter';
import { SiteQueries } from './read/sites.queries';
import { PublishingAuthService } from './write/publishing-auth.commands';
import { ShareLinkService } from './write/share-link.commands';
import { SiteService } from './write/site.commands';

@Module({})
export class SitesModule {
  static forRole(role: ServiceRole): DynamicModule {
    return featureModule(SitesModule, role, {
      controllers: [SitesController, ShareLinksController, PublishingAuthController],
      commands: [SiteService, ShareLinkService, ShareLinkKeys, PublishingAuthService],
      queries: [
        SiteQueries,
        SitePresenter,
        ShareLinkQueries,
        ShareLinkPresenter,
        ShareLinkKeys,
        PublishingAuthQueries,
      ],
    });
  }
}
