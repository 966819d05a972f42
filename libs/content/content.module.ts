import type { ServiceRole } from '@app/platform/rpc/feature-module';
import { featureModule } from '@app/platform/rpc/feature-module';
import { type DynamicModule, Module } from '@nestjs/common';
import { ContentObjectStore, ContentSources, RevisionPresentation } from './content.api';
import { ChangeRequestsController } from './http/change-requests.controller';
import { ContentController } from './http/content.controller';
import { FileDownloadsController } from './http/file-downloads.controller';
import { ReviewsController } from './http/reviews.controller';
import { ChangeRequestPresenter } from './read/change-request.presenter';
import { ChangeRequestQueries } from './read/change-requests.queries';
import { ContentQueries } from './read/content.queries';
import { ContentObjects } from './read/content-objects.store';
import { FileDownloads } from './read/file-downloads.queries';
import { RevisionPresenter } from './read/revision.presenter';
import { ChangeRequestService } from './write/change-request.commands';

/** What `content.api.ts` names, provided by content's own services. */
const objectStore = { provide: ContentObjectStore, useExisting: ContentObjects };
const sources = { provide: ContentSources, useExisting: ContentQueries };
const presentation = { provide: RevisionPresentation, useExisting: RevisionPresenter };

@Module({})
export class ContentModule {
  static forRole(role: ServiceRole): DynamicModule {
    // Global: search, PDF exports and links read content through the providers `content.api.ts` names,
    // one of each per process (the objects kept in memory are kept once).
    const module = featureModule(ContentModule, role, {
      controllers: [ChangeRequestsController, ReviewsController, ContentController, FileDownloadsController],
      commands: [ChangeRequestService, ContentObjects, objectStore],
      queries: [
        ChangeRequestQueries,
        ChangeRequestPresenter,
        ContentQueries,
        RevisionPresenter,
        ContentObjects,
        FileDownloads,
        objectStore,
        sources,
        presentation,
      ],
    });
    return { ...module, global: true };
  }
}
