import { SystemClock } from '@app/platform/clock/clock';
import { type Config, ConfigError, loadConfig } from '@app/platform/config/config';
import {
  createObservability,
  type Observability,
  observeStorage,
} from '@app/platform/observability/observability';
import { serveApiReference } from '@app/platform/openapi/api-reference';
import { Logger } from '@nestjs/common';
import { announceBootstrap } from '../bootstrap';
import { createHttpApp } from '../http-app';
import { Runtime } from '../runtime';
import { openStorage } from '../storage';
import { type ClusterConfig, loadClusterConfig } from './cluster.config';
import { GatewayModule } from './gateway.module';
import { type ClusterRole, ServiceModule } from './service.module';

/** Builds the gateway (not yet listening): the public API, forwarding to the command and query services. */
export async function createGatewayApp(config: Config, cluster: ClusterConfig, observability: Observability) {
  // Its remote calls forward the request id from code that has no request: see REQUEST_ID_SOURCE.
  const app = await createHttpApp(GatewayModule.forRoot(config, cluster), config, observability, {
    requestContext: true,
  });
  serveApiReference(app);
  return app;
}

/** Starts one cluster service from the environment; invalid configuration exits naming the variable. */
export async function startService(
  role: ClusterRole | 'gateway',
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  let app: Awaited<ReturnType<typeof createHttpApp>>;
  try {
    const config = loadConfig(env);
    const cluster = loadClusterConfig(env, { gateway: role === 'gateway' });
    const observability = createObservability({ level: config.logLevel, service: role });
    if (role === 'gateway') {
      app = await createGatewayApp(config, cluster, observability);
    } else {
      if (role === 'worker' && !config.redisUrl)
        throw new ConfigError('REDIS_URL', 'is required by the worker service');
      const clock = new SystemClock();
      const storage = observeStorage(await openStorage(config, clock), observability);
      const module = ServiceModule.forRoot(role, config, clock, storage, cluster);
      app = await createHttpApp(module, config, observability);
    }
    await app.init();
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  if (role === 'command') announceBootstrap(app.get(Runtime).bootstrapped);
  new Logger(role).log(`listening on ${await app.getUrl()}`);
}
