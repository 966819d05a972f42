import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { endProcess, freePort, waitForRedis } from './process-harness';

/**
 * A redis-server of the tests' own (never the machine's shared one), on a free port, that a test may
 * kill and start again. Persistent by default (append-only file, fsync on every write) so that what it
 * acknowledged survives a SIGKILL, as a production Redis configured for queues would.
 */
export class RedisProcess {
  private child?: ChildProcess;

  private constructor(
    readonly port: number,
    readonly dir: string,
    private readonly persistent: boolean,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  static async start(options: { persistent?: boolean } = {}): Promise<RedisProcess> {
    const dir = mkdtempSync(join(tmpdir(), 'test-redis-'));
    const server = new RedisProcess(await freePort(), dir, options.persistent ?? true);
    await server.restart();
    return server;
  }

  /** Starts the server on the same port and directory (after kill()). */
  async restart(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--dir', this.dir];
    args.push(
      ...(this.persistent ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']),
    );
    const child = spawn('redis-server', args, { stdio: 'ignore' });
    let failure: Error | undefined;
    child.on('error', (error) => {
      failure = new Error(
        `redis-server could not be started: ${error.message}. Install it (apt-get install redis-server) or set REDIS_URL.`,
      );
    });
    child.on('exit', (code, signal) => {
      failure ??= new Error(`redis-server exited at start (${signal ?? `code ${code}`})`);
    });
    this.child = child;
    await waitForRedis(this.port, { failed: () => failure });
  }

  /** SIGKILL: nothing is flushed beyond what was already fsynced, as in a crash. */
  kill(): Promise<void> {
    return this.end('SIGKILL');
  }

  /** Ends the server and removes its directory. */
  async stop(): Promise<void> {
    await this.end('SIGTERM');
    rmSync(this.dir, { recursive: true, force: true });
  }

  private end(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    this.child = undefined;
    return child ? endProcess(child, signal) : Promise.resolve();
  }
}
