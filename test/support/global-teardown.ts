import type { RedisProcess } from './redis-process';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __testRedis?: RedisProcess }).__testRedis?.stop();
}
