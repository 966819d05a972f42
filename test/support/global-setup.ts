import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A free TCP port on loopback. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function waitForRedis(port: number): Promise<void> {
  const { default: Redis } = await import('ioredis');
  const deadline = Date.now() + 10_000;
  for (;;) {
    const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0 });
    try {
      await client.connect();
      await client.ping();
      client.disconnect();
      return;
    } catch (error) {
      client.disconnect();
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

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
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'test-redis-'));
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: 'ignore', detached: false },
  );
  child.on('error', (error) => {
    process.stderr.write(
      `redis-server could not be started: ${error.message}. Install it (apt-get install redis-server) or set REDIS_URL.\n`,
    );
  });
  await waitForRedis(port);
  process.env.REDIS_URL = `redis://127.0.0.1:${port}`;
  process.env.TEST_REDIS_PID = String(child.pid);
  (globalThis as { __testRedis?: typeof child }).__testRedis = child;
}
