import { RedisProcess } from './redis-process';

/**
 * Starts a private redis-server on a free port for the run (never the machine's shared one),
 * unless REDIS_URL is given. Servers for EventStoreDB and MongoDB are only used when their URLs are set.
 */
export default async function globalSetup(): Promise<void> {
  const skipped: string[] = [];
  if (!process.env.EVENTSTORE_URL) skipped.push('EventStoreDB adapter suites (EVENTSTORE_URL is not set)');
  if (!process.env.MONGO_URL) skipped.push('MongoDB adapter suites (MONGO_URL is not set)');
  if (skipped.length > 0) process.stdout.write(`\nSkipping: ${skipped.join('; ')}\n`);
  if (process.env.REDIS_URL) return;
  // Nothing of it needs to outlive the run: no persistence.
  const redis = await RedisProcess.start({ persistent: false });
  process.env.REDIS_URL = redis.url;
  process.env.TEST_REDIS_PID = String(redis.pid);
  (globalThis as { __testRedis?: RedisProcess }).__testRedis = redis;
}
