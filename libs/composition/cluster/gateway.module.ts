import { Access } from '@app/platform/auth/access';
import { ROUTE_SCOPES } from '@app/platform/auth/route-scopes';
import type { Config } from '@app/platform/config/config';
import { CONFIG } from '@app/platform/config/config.module';
import { HTTP_PIPELINE } from '@app/platform/http/pipeline';
import { Urls } from '@app/platform/http/urls';
import { currentCorrelationId } from '@app/platform/observability/request-context';
import { ReadYourWrites } from '@app/platform/projector/read-your-writes';
import { remoteProviders } from '@app/platform/rpc/feature-module';
import { GatewayReadYourWrites } from '@app/platform/rpc/gateway-read-your-writes';
import { CONSISTENCY_FLOOR, ConsistencyFloor, REQUEST_ID_SOURCE, RPC_CLIENT } from '@app/platform/rpc/remote';
import { RpcClient } from '@app/platform/rpc/rpc.client';
import { ConsistencyProbe } from '@app/platform/rpc/rpc.controller';
import { type DynamicModule, Global, Module } from '@nestjs/common';
import { featureModules } from '../catalog';
import { ROUTE_SCOPE_LIST } from '../features';
import type { ClusterConfig } from './cluster.config';
import { CORE_REMOTE } from './core-remote';
import { GatewayHealthController } from './gateway-health.controller';

/** The gateway's own pieces: the RPC client, remote stand-ins for authentication and consistency. */
@Global()
@Module({})
class GatewayCoreModule {
  static forRoot(config: Config, cluster: ClusterConfig): DynamicModule {
    const client = new RpcClient(
      { command: cluster.commandUrls, query: cluster.queryUrls },
      cluster.internalToken,
    );
    return {
      module: GatewayCoreModule,
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: ROUTE_SCOPES, useValue: ROUTE_SCOPE_LIST },
        {
          provide: RPC_CLIENT,
          useFactory: async () => {
            await client.start();
            return client;
          },
        },
        { provide: CONSISTENCY_FLOOR, useValue: new ConsistencyFloor() },
        { provide: REQUEST_ID_SOURCE, useValue: currentCorrelationId },
        ...remoteProviders(CORE_REMOTE),
        { provide: ReadYourWrites, useClass: GatewayReadYourWrites },
        Urls,
        ...HTTP_PIPELINE,
      ],
      exports: [
        CONFIG,
        ROUTE_SCOPES,
        RPC_CLIENT,
        CONSISTENCY_FLOOR,
        REQUEST_ID_SOURCE,
        Access,
        ConsistencyProbe,
        ReadYourWrites,
        Urls,
      ],
    };
  }
}

/** The only public surface in cluster mode: authenticates, validates, forwards. */
@Module({})
export class GatewayModule {
  static forRoot(config: Config, cluster: ClusterConfig): DynamicModule {
    return {
      module: GatewayModule,
      imports: [GatewayCoreModule.forRoot(config, cluster), ...featureModules('gateway')],
      controllers: [GatewayHealthController],
    };
  }
}
