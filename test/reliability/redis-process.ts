import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from '../support/cluster-harness';

/**
 * A redis-server of the suite's own, on a free port, that a test may kill and start again. Persistent
 * (append-only file, fsync on every write) so that what it acknowledged survives a SIGKILL, as a
 * production Redis configured for queues would.
 */
export class RedisProcess {
  private child?: ChildProcess;

  private constructor(
    readonly port: number,
    readonly dir: string,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<RedisProcess> {
    const server = new RedisProcess(await freePort(), mkdtempSync(join(tmpdir(), 'reliability-redis-')));
    await server.restart();
    return server;
  }

  /** Starts the server on the same port and directory (after kill()). */
  async restart(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', ''];
    args.push('--appendonly', 'yes', '--appendfsync', 'always', '--dir', this.dir);
    const child = spawn('redis-server', args, { stdio: 'ignore' });
    child.on('error', () => {});
    this.child = child;
    await this.waitUntilUp();
  }

  /** SIGKILL: nothing is flushed beyond what was already fsynced, as in a crash. */
  kill(): Promise<void> {
    return this.signal('SIGKILL');
  }

  async stop(): Promise<void> {
    await this.signal('SIGTERM');
    rmSync(this.dir, { recursive: true, force: true });
  }

  private signal(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }

  private async waitUntilUp(): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const client = new Redis({
        port: this.port,
        host: '127.0.0.1',
        lazyConnect: true,
        maxRetriesPerRequest: 0,
      });
      client.on('error', () => {});
      try {
        await client.connect();
        // The append-only file is loaded before the server answers anything but LOADING.
        await client.ping();
        client.disconnect();
        return;
      } catch (error) {
        client.disconnect();
        if (this.child && this.child.exitCode !== null) throw new Error('redis-server exited at start');
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }
}
