import { Access } from '@app/platform/auth/access';
import { type Clock, SystemClock } from '@app/platform/clock/clock';
import type { Config } from '@app/platform/config/config';
import { ResponseCache } from '@app/platform/http/response-cache';
import type { LogDestination } from '@app/platform/observability/logger';
import { createObservability, observeStorage } from '@app/platform/observability/observability';
import { serveApiReference } from '@app/platform/openapi/api-reference';
import { Projector } from '@app/platform/projector/projector';
import { CachedReadStore } from '@app/platform/readstore/cached-read-store';
import { Logger } from '@nestjs/common';
import { StandaloneModule } from './app.module';
import { announceBootstrap } from './bootstrap';
import { createHttpApp } from './http-app';
import { Runtime } from './runtime';
import { openStorage } from './storage';

export { BODY_LIMIT_BYTES } from './http-app';

export interface StandaloneOptions {
  /** Where the JSON log lines go; standard output when absent. */
  logDestination?: LogDestination;
}

/** Builds the standalone application (not yet listening). */
export async function createStandaloneApp(
  config: Config,
  clock: Clock = new SystemClock(),
  options: StandaloneOptions = {},
) {
  const observability = createObservability({
    level: config.logLevel,
    service: 'standalone',
    destination: options.logDestination,
  });
  const opened = observeStorage(openStorage(config, clock), observability);
  // This process's projector writes the views, so a document cache here learns every change.
  const storage = { ...opened, views: new CachedReadStore(opened.views) };
  const app = await createHttpApp(StandaloneModule.forRoot(config, clock, storage), config, observability);
  serveApiReference(app);
  // The projector runs in this process, so every change of the views is announced here first.
  new ResponseCache(app.get(Access), app.get(Projector)).install(app.getHttpAdapter().getInstance());
  await app.init();
  return { app, runtime: app.get(Runtime), storage, observability };
}

export async function startStandalone(config: Config, clock?: Clock) {
  const built = await createStandaloneApp(config, clock);
  await built.app.listen({ port: config.port, host: config.host });
  announceBootstrap(built.runtime.bootstrapped);
  new Logger('http').log(`listening on ${await built.app.getUrl()}`);
  return built;
}
