import { loadClusterConfig } from '@app/composition/cluster/cluster.config';
import { createGatewayApp } from '@app/composition/cluster/create-service';
import { openStorage, type Storage } from '@app/composition/storage';
import type { TokenDoc } from '@app/platform/auth/access';
import { SystemClock } from '@app/platform/clock/clock';
import { loadConfig } from '@app/platform/config/config';
import { hashSecret } from '@app/platform/domain/ids';
import { createObservability } from '@app/platform/observability/observability';
import { ViewsCheckpoint } from '@app/platform/rpc/views-checkpoint';
import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CliModule } from '../../apps/cli/src/cli.module';
import { httpTo, type Setup, setupOf, type TestApp, useTestApp } from './app-harness';
import { CLUSTER_BOOTSTRAP_TOKEN, Cluster, clusterEnv } from './cluster-harness';
import { type RawReply, send } from './http-checks';
import { childEnv, retryUntil } from './process-harness';
import { removeDir, tempDir } from './temp-dir';

/**
 * A server the route suites (R3 bad input, R4 authorization) run against: the standalone app, or a
 * gateway with command and query replicas behind it. The suites read the routes from `app`, the Nest
 * application that answers on `url`, so each target is checked on the routes it really serves.
 */
export interface ApiTarget {
  url: string;
  /** The bootstrap administrator's API token. */
  token: string;
  app: INestApplication;
  /** Where fixtures are written directly (users, tokens, memberships, organizations). */
  setup: Setup;
  http: TestApp['http'];
  /** The head of the event log, to prove a refused request appended nothing. */
  logHead(): Promise<number>;
}

/** `send` of http-checks.ts, to a target: it reads the url and the token only. */
export function sendTo(
  target: ApiTarget,
  ...request: Parameters<typeof send> extends [unknown, ...infer Rest] ? Rest : never
): Promise<RawReply> {
  return send({ url: target.url, token: target.token } as TestApp, ...request);
}

/** The target of the enclosing `describe`, started before its tests and stopped after them. */
export type CurrentTarget = () => ApiTarget;

/** The standalone app, as `npm start` runs it (see `useTestApp`). */
export function useStandaloneTarget(): CurrentTarget {
  const current = useTestApp();
  return () => {
    const app = current();
    return {
      url: app.url,
      token: app.token,
      app: app.built.app,
      setup: setupOf(app),
      http: app.http,
      logHead: () => app.built.storage.events.headPosition(),
    };
  };
}

/**
 * A gateway with one command and one query replica and the projector behind it, on shared embedded
 * storage. The replicas and the projector are processes of their own (cluster-harness.ts); the gateway
 * is built in this process from the same code the gateway service runs (`createGatewayApp`), so that the
 * suites read its routes. Fixtures are written through the CLI's application context on the same storage
 * and awaited in the projector's checkpoint.
 */
export function useClusterTarget(): CurrentTarget {
  let target: ApiTarget | undefined;
  const stops: (() => Promise<void> | void)[] = [];

  beforeAll(async () => {
    const dataDir = tempDir('cluster-target-');
    stops.push(() => removeDir(dataDir));
    const env = clusterEnv(dataDir);
    const cluster = new Cluster(env);
    stops.push(() => cluster.stopAll());
    // The command service bootstraps the empty log; the others start once it has.
    const command = await cluster.start('command');
    const [query] = await Promise.all([cluster.start('query'), cluster.start('projector')]);

    const gatewayEnv = {
      ...env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      COMMAND_URLS: command.url,
      QUERY_URLS: query.url,
    };
    const config = loadConfig(childEnv(gatewayEnv));
    const gateway = await createGatewayApp(
      config,
      loadClusterConfig(childEnv(gatewayEnv), { gateway: true }),
      createObservability({ level: config.logLevel, service: 'gateway' }),
    );
    stops.push(() => gateway.close());
    await gateway.listen({ port: 0, host: '127.0.0.1' });
    const url = (await gateway.getUrl()).replace('[::1]', '127.0.0.1');

    const clock = new SystemClock();
    const storage = await openStorage({ ...config, dataDir }, clock);
    stops.push(() => closeStorage(storage));
    const services: INestApplicationContext = await NestFactory.createApplicationContext(
      CliModule.forRoot({ ...config, dataDir }, clock, storage),
      { logger: ['error'] },
    );
    stops.push(() => services.close());
    const checkpoint = new ViewsCheckpoint(storage.views);

    const http = httpTo(url, CLUSTER_BOOTSTRAP_TOKEN);
    // Ready once the bootstrap reached the views and the gateway answers with them.
    await retryUntil(
      async () => {
        const reply = await http('GET', '/v1/orgs');
        if (reply.status !== 200) throw new Error(`GET /v1/orgs answered ${reply.status}`);
      },
      { timeoutMs: 20_000 },
    );
    const me = await storage.views.get<TokenDoc>('tokens', hashSecret(CLUSTER_BOOTSTRAP_TOKEN));
    if (!me) throw new Error('the bootstrap token is not in the views');
    target = {
      url,
      token: CLUSTER_BOOTSTRAP_TOKEN,
      app: gateway,
      setup: {
        userId: me.userId,
        services,
        waitFor: (position) => checkpoint.waitFor(position, 15_000),
      },
      http,
      logHead: () => storage.events.headPosition(),
    };
  }, 60_000);

  afterAll(async () => {
    target = undefined;
    for (const stop of stops.reverse()) await stop();
  });

  return () => {
    if (!target) throw new Error('the cluster is not started yet');
    return target;
  };
}

async function closeStorage(storage: Storage): Promise<void> {
  await storage.events.close();
  await storage.views.close();
  await storage.jobs.close();
  await storage.blobs.close();
}

/** The targets the route suites run on, each started once per suite file: `describe.each(TARGETS)`. */
export const TARGETS: [string, () => CurrentTarget][] = [
  ['standalone', useStandaloneTarget],
  ['gateway with a command and a query replica', useClusterTarget],
];
