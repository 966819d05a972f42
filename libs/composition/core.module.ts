import { DocumentConversions } from '@app/documents/document/conversions';
import { Access } from '@app/platform/auth/access';
import { ROUTE_SCOPES } from '@app/platform/auth/route-scopes';
import { BLOB_STORE } from '@app/platform/blobs/blob-store.port';
import { CLOCK, type Clock } from '@app/platform/clock/clock';
import type { Config } from '@app/platform/config/config';
import { CONFIG } from '@app/platform/config/config.module';
import { EVENT_STORE } from '@app/platform/eventstore/event-store.port';
import { PLACED_VIEWS } from '@app/platform/feature/placed-view';
import { HTTP_PIPELINE } from '@app/platform/http/pipeline';
import { Urls } from '@app/platform/http/urls';
import { JOB_QUEUE } from '@app/platform/jobs/job-queue.port';
import { LIVE_PROJECTOR, type LiveProjector, Projector } from '@app/platform/projector/projector';
import { ReadYourWrites } from '@app/platform/projector/read-your-writes';
import { VIEW_CHANGES } from '@app/platform/projector/view-changes';
import { READ_STORE } from '@app/platform/readstore/read-store.port';
import { FollowedViewChanges } from '@app/platform/rpc/followed-view-changes';
import { ViewsCheckpoint } from '@app/platform/rpc/views-checkpoint';
import { CommandRunner } from '@app/platform/write/command-runner';
import { type DynamicModule, Global, Module, type Provider } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { PooledConversions } from './conversions';
import { PLACED_VIEW_LIST, PROJECTION_LIST, ROUTE_SCOPE_LIST } from './features';
import type { Storage } from './storage';

export const STORAGE = Symbol('STORAGE');

/**
 * Where a process learns that its views changed, for its in-memory caches: from the projector it
 * runs, by following the log when another process projects, or nowhere (nothing is cached).
 */
export type ViewChangeSource = 'projector' | 'follow' | 'none';

function viewChangesProvider(source: ViewChangeSource, storage: Storage): Provider[] {
  if (source === 'projector') return [{ provide: VIEW_CHANGES, useExisting: LIVE_PROJECTOR }];
  if (source === 'none') return [];
  return [
    {
      provide: VIEW_CHANGES,
      useFactory: () =>
        new FollowedViewChanges(storage.events, new ViewsCheckpoint(storage.views), PROJECTION_LIST),
    },
  ];
}

/** The ports, their adapters and the cross-cutting HTTP pieces, shared by every feature module. */
@Global()
@Module({})
export class CoreModule {
  static forRoot(
    config: Config,
    clock: Clock,
    storage: Storage,
    viewChanges: ViewChangeSource,
    /** The projector keeping this process's views when it runs elsewhere (a thread); the in-process one otherwise. */
    liveProjector?: LiveProjector,
  ): DynamicModule {
    return {
      module: CoreModule,
      imports: [CqrsModule.forRoot(), DiscoveryModule],
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: CLOCK, useValue: clock },
        { provide: STORAGE, useValue: storage },
        { provide: EVENT_STORE, useValue: storage.events },
        { provide: READ_STORE, useValue: storage.views },
        { provide: JOB_QUEUE, useValue: storage.jobs },
        { provide: BLOB_STORE, useValue: storage.blobs },
        { provide: ROUTE_SCOPES, useValue: ROUTE_SCOPE_LIST },
        { provide: PLACED_VIEWS, useValue: PLACED_VIEW_LIST },
        {
          provide: Projector,
          useFactory: () => new Projector(storage.events, storage.views, PROJECTION_LIST),
        },
        liveProjector
          ? { provide: LIVE_PROJECTOR, useValue: liveProjector }
          : { provide: LIVE_PROJECTOR, useExisting: Projector },
        ...viewChangesProvider(viewChanges, storage),
        // Threads started on the first conversion: a process that converts nothing starts none.
        { provide: DocumentConversions, useFactory: () => new PooledConversions(config.conversions) },
        CommandRunner,
        Access,
        Urls,
        ReadYourWrites,
        ...HTTP_PIPELINE,
      ],
      exports: [
        CONFIG,
        CLOCK,
        STORAGE,
        EVENT_STORE,
        READ_STORE,
        JOB_QUEUE,
        BLOB_STORE,
        Projector,
        LIVE_PROJECTOR,
        CommandRunner,
        Access,
        Urls,
        ReadYourWrites,
        DocumentConversions,
        CqrsModule,
        DiscoveryModule,
        ROUTE_SCOPES,
        PLACED_VIEWS,
        // Caches in feature modules follow the same announcements as `Access`.
        ...(viewChanges === 'none' ? [] : [VIEW_CHANGES]),
      ],
    };
  }
}
