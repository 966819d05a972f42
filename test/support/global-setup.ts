import { buildFerretDb, FerretDbProcess } from './ferretdb-process';
import { ensureFreshBuild } from './fresh-build';
import { rendererBuild } from './gitbook-renderer';
import { RedisProcess } from './redis-process';

/**
 * Compiles dist/ first when a source is newer than its build (fresh-build.ts): the storage thread,
 * the cluster's services and the CLI run compiled code, and must run what the sources say.
 *
 * Starts a private redis-server on a free port for the run (never the machine's shared one), unless
 * REDIS_URL is given; likewise a private FerretDB (built from test/ferretdb when Go is installed) for the
 * MongoDB adapter's suites, unless MONGO_URL is given. EventStoreDB is only used when its URL is set.
 */
export default async function globalSetup(): Promise<void> {
  ensureFreshBuild();
  const skipped: string[] = [];
  if (!process.env.EVENTSTORE_URL) skipped.push('EventStoreDB adapter suites (EVENTSTORE_URL is not set)');
  const renderer = rendererBuild();
  if ('missing' in renderer) skipped.push(`GitBook renderer check (${renderer.missing})`);
  if (!process.env.MONGO_URL) {
    const unavailable = buildFerretDb();
    if (unavailable) {
      skipped.push(`MongoDB adapter suites (MONGO_URL is not set and ${unavailable})`);
    } else {
      const ferretdb = await FerretDbProcess.start();
      process.env.MONGO_URL = ferretdb.url;
      process.env.TEST_MONGO_SERVER = 'FerretDB 1.24 (test/ferretdb, SQLite backend)';
      (globalThis as { __testFerretDb?: FerretDbProcess }).__testFerretDb = ferretdb;
    }
  }
  if (skipped.length > 0) process.stdout.write(`\nSkipping: ${skipped.join('; ')}\n`);
  if (process.env.MONGO_URL)
    process.stdout.write(
      `\nMongoDB-wire suites run against ${process.env.TEST_MONGO_SERVER ?? 'MONGO_URL'}\n`,
    );
  if (process.env.REDIS_URL) return;
  // Nothing of it needs to outlive the run: no persistence.
  const redis = await RedisProcess.start({ persistent: false });
  process.env.REDIS_URL = redis.url;
  process.env.TEST_REDIS_PID = String(redis.pid);
  (globalThis as { __testRedis?: RedisProcess }).__testRedis = redis;
}
