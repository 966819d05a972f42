import type { FerretDbProcess } from './ferretdb-process';
import type { RedisProcess } from './redis-process';

export default async function globalTeardown(): Promise<void> {
  const started = globalThis as { __testRedis?: RedisProcess; __testFerretDb?: FerretDbProcess };
  await started.__testRedis?.stop();
  await started.__testFerretDb?.stop();
}
