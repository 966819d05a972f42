import { featureModule, type ServiceRole } from '@app/platform/rpc/feature-module';
import { SpacePresenter } from '@app/spaces/read/space.presenter';
import { type DynamicModule, Module } from '@nestjs/common';
import { PublishingAuthController } from './http/publishing-auth.controller';
import { ShareLinksController } from './http/share-links.controller';
import { SiteSectionGroupsController } from './http/site-section-groups.controller';
import { SiteSectionsController } from './http/site-sections.controller';
import { SiteSpacesController } from './http/site-spaces.controller';
import { SiteStructureController } from './http/site-structure.controller';
import { SitesController } from './http/sites.controller';
import { PublishingAuthQueries } from './read/publishing-auth.queries';
import { ShareLinkKeys } from './read/share-link.keys';
import { ShareLinkPresenter } from './read/share-link.presenter';
import { ShareLinkQueries } from './read/share-links.queries';
import { SitePresenter } from './read/site.presenter';
import { SiteStructurePresenter } from './read/site-structure.presenter';
import { SiteStructureQueries } from './read/site-structure.queries';
import { SiteQueries } from './read/sites.queries';
import { PublishingAuthService } from './write/publishing-auth.commands';
import { ShareLinkService } from './write/share-link.commands';
import { SiteService } from './write/site.commands';
import { SiteSpaceDetacher } from './write/site-space-detach.job';
import { SiteStructureService } from './write/site-structure.commands';

@Module({})
export class SitesModule {
  static forRole(role: ServiceRole): DynamicModule {
    return featureModule(SitesModule, role, {
      controllers: [
        SitesController,
        SiteSpacesController,
        SiteSectionsController,
        SiteSectionGroupsController,
        SiteStructureController,
        ShareLinksController,
        PublishingAuthController,
      ],
      commands: [SiteService, SiteStructureService, ShareLinkService, ShareLinkKeys, PublishingAuthService],
      queries: [
        SiteQueries,
        SitePresenter,
        SiteStructureQueries,
        SiteStructurePresenter,
        SpacePresenter,
        ShareLinkQueries,
        ShareLinkPresenter,
        ShareLinkKeys,
        PublishingAuthQueries,
      ],
      jobs: [SiteSpaceDetacher],
    });
  }
}
