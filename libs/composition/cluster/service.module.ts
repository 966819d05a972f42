import type { Clock } from '@app/platform/clock/clock';
import type { Config } from '@app/platform/config/config';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { exposedProviders, type ServiceRole } from '@app/platform/rpc/feature-module';
import { ConsistencyProbe, RPC_SERVER_OPTIONS, RpcController } from '@app/platform/rpc/rpc.controller';
import { ViewsCheckpoint } from '@app/platform/rpc/views-checkpoint';
import { type DynamicModule, Module } from '@nestjs/common';
import { featureModules } from '../catalog';
import { CoreModule, type ViewChangeSource } from '../core.module';
import { HealthController } from '../health.controller';
import { RUNTIME_PARTS, Runtime, type RuntimePart } from '../runtime';
import type { Storage } from '../storage';
import type { ClusterConfig } from './cluster.config';
import { CORE_REMOTE } from './core-remote';

export type ClusterRole = Exclude<ServiceRole, 'standalone' | 'gateway' | 'cli'> | 'projector';

const PARTS: Record<ClusterRole, RuntimePart[]> = {
  command: ['bootstrap'],
  query: [],
  projector: ['projector'],
  worker: ['worker'],
};

/** Services that answer requests cache what they read often; the projector service is its own source. */
const VIEW_CHANGE_SOURCE: Record<ClusterRole, ViewChangeSource> = {
  command: 'follow',
  query: 'follow',
  projector: 'projector',
  worker: 'none',
};

/** A command, query, projector or worker service: the shared core plus what its role needs. */
@Module({})
export class ServiceModule {
  static forRoot(
    role: ClusterRole,
    config: Config,
    clock: Clock,
    storage: Storage,
    cluster: ClusterConfig,
  ): DynamicModule {
    const serving = role === 'command' || role === 'query';
    const featureRole: ServiceRole = role === 'projector' ? 'query' : role;
    return {
      module: ServiceModule,
      imports: [
        CoreModule.forRoot(config, clock, storage, VIEW_CHANGE_SOURCE[role]),
        ...(role === 'projector' ? [] : featureModules(featureRole)),
      ],
      controllers: [HealthController, ...(serving ? [RpcController] : [])],
      providers: [
        Runtime,
        { provide: RUNTIME_PARTS, useValue: PARTS[role] },
        {
          provide: RPC_SERVER_OPTIONS,
          useValue: {
            internalToken: cluster.internalToken,
            consistencyTimeoutMs: cluster.consistencyTimeoutMs,
          },
        },
        {
          provide: ViewsCheckpoint,
          useFactory: (views: ReadStore) => new ViewsCheckpoint(views),
          inject: [READ_STORE],
        },
        ConsistencyProbe,
        ...(serving ? exposedProviders(CORE_REMOTE, role) : []),
      ],
    };
  }
}
