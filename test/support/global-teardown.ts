import type { ChildProcess } from 'node:child_process';

export default async function globalTeardown(): Promise<void> {
  const child = (globalThis as { __testRedis?: ChildProcess }).__testRedis;
  if (!child) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(resolve, 3000).unref();
  });
}
