import { randomBytes } from 'node:crypto';
import { Access } from '@app/platform/auth/access';
import { type Clock, SystemClock } from '@app/platform/clock/clock';
import type { Config } from '@app/platform/config/config';
import { keptSecret } from '@app/platform/config/kept-secret';
import { ResponseCache } from '@app/platform/http/response-cache';
import type { LogDestination } from '@app/platform/observability/logger';
import { createObservability, observeStorage } from '@app/platform/observability/observability';
import { serveApiReference } from '@app/platform/openapi/api-reference';
import { LIVE_PROJECTOR, type LiveProjector } from '@app/platform/projector/projector';
import { CachedReadStore } from '@app/platform/readstore/cached-read-store';
import { compiledScript } from '@app/platform/threads/compiled-script';
import { StorageThread, type StorageThreadOptions } from '@app/platform/threads/storage-thread';
import { Logger } from '@nestjs/common';
import { StandaloneModule } from './app.module';
import { announceBootstrap } from './bootstrap';
import { createHttpApp } from './http-app';
import { Runtime } from './runtime';
import { openStorage, type StorageConfig } from './storage';

export { BODY_LIMIT_BYTES } from './http-app';

export interface StandaloneOptions {
  /** Where the JSON log lines go; standard output when absent. */
  logDestination?: LogDestination;
}

/** Builds the standalone application (not yet listening). */
/** Where a standalone server without `SIGNING_KEY` keeps the one it drew: share links' keys derive from it. */
export const SIGNING_KEY_FILE = 'signing-key';

export async function createStandaloneApp(
  given: Config,
  clock: Clock = new SystemClock(),
  options: StandaloneOptions = {},
) {
  const config = given.signingKeyDrawn
    ? {
        ...given,
        signingKey: keptSecret(given.dataDir, SIGNING_KEY_FILE, () => randomBytes(32).toString('base64url')),
      }
    : given;
  const observability = createObservability({
    level: config.logLevel,
    service: 'standalone',
    destination: options.logDestination,
  });
  const thread = config.storageThread ? storageThread(config, (writes) => views.learn(writes)) : undefined;
  const opened = observeStorage(await openStorage(config, clock, { writer: thread?.writer }), observability);
  // This process's projector writes the views, so a document cache here learns every change.
  const views = new CachedReadStore(opened.views);
  const storage = { ...opened, views, thread };
  const app = await createHttpApp(
    StandaloneModule.forRoot(config, clock, storage, thread),
    config,
    observability,
  );
  serveApiReference(app);
  // The projector runs in this process, so every change of the views is announced here first.
  const projector = app.get<symbol, LiveProjector>(LIVE_PROJECTOR);
  new ResponseCache(app.get(Access), projector).install(app.getHttpAdapter().getInstance());
  await app.init();
  return { app, runtime: app.get(Runtime), storage, observability };
}

/**
 * The log's commits and the projector on a thread of their own, over their own connections to the
 * stores; the document cache of this thread learns each commit to the views. The thread runs compiled
 * code: beside this module in dist/, or, when this module runs from source (a test runner compiling
 * TypeScript in memory), the build in dist/.
 */
function storageThread(config: Config, onCommit: StorageThreadOptions['onCommit']): StorageThread {
  const script = compiledScript(__dirname, 'storage-worker.js');
  if (!script) throw new Error('the storage thread runs compiled code: run `npm run build` first');
  const storage: StorageConfig = {
    dataDir: config.dataDir,
    eventstoreUrl: config.eventstoreUrl,
    mongoUrl: config.mongoUrl,
  };
  return new StorageThread({ script, workerData: { storage }, onCommit });
}

export async function startStandalone(config: Config, clock?: Clock) {
  const built = await createStandaloneApp(config, clock);
  await built.app.listen({ port: config.port, host: config.host });
  announceBootstrap(built.runtime.bootstrapped);
  new Logger('http').log(`listening on ${await built.app.getUrl()}`);
  return built;
}
