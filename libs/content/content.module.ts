import { SignedLinks } from '@app/platform/http/signed-links';
import type { ServiceRole } from '@app/platform/rpc/feature-module';
import { featureModule } from '@app/platform/rpc/feature-module';
import { type DynamicModule, Module } from '@nestjs/common';
import { ChangeRequestsController, ReviewsController } from './http/change-requests.controller';
import { ContentController } from './http/content.controller';
import { FileDownloadsController } from './http/file-downloads.controller';
import { LinksController } from './http/links.controller';
import { OrganizationSearchController } from './http/organization-search.controller';
import { PdfController } from './http/pdf.controller';
import { SearchController } from './http/search.controller';
import { ChangeRequestPresenter } from './read/change-request.presenter';
import { ChangeRequestQueries } from './read/change-requests.queries';
import { ContentQueries } from './read/content.queries';
import { ContentObjects } from './read/content-objects.store';
import { FileDownloads } from './read/file-downloads.queries';
import { LinkQueries } from './read/links.queries';
import { OrganizationSearchQueries } from './read/organization-search.queries';
import { PdfQueries } from './read/pdf.queries';
import { PdfRenderer } from './read/pdf-renderer';
import { RevisionPresenter } from './read/revision.presenter';
import { SearchQueries } from './read/search.queries';
import { ChangeRequestService, SpaceContentCommandHandler } from './write/change-request.commands';
import { PdfExports } from './write/pdf-export.job';

@Module({})
export class ContentModule {
  static forRole(role: ServiceRole): DynamicModule {
    return featureModule(ContentModule, role, {
      controllers: [
        ChangeRequestsController,
        ReviewsController,
        ContentController,
        SearchController,
        OrganizationSearchController,
        LinksController,
        PdfController,
        FileDownloadsController,
      ],
      commands: [SpaceContentCommandHandler, ChangeRequestService, ContentObjects],
      queries: [
        ChangeRequestQueries,
        ChangeRequestPresenter,
        ContentQueries,
        RevisionPresenter,
        ContentObjects,
        SearchQueries,
        OrganizationSearchQueries,
        LinkQueries,
        PdfQueries,
        PdfRenderer,
        FileDownloads,
        SignedLinks,
      ],
      jobs: [PdfExports, PdfRenderer],
      remote: {
        command: [ChangeRequestService],
        query: [
          ChangeRequestQueries,
          ContentQueries,
          SearchQueries,
          OrganizationSearchQueries,
          LinkQueries,
          PdfQueries,
          FileDownloads,
        ],
      },
    });
  }
}
