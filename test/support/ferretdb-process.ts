import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { endProcess, freePort, ROOT, retryUntil } from './process-harness';

/** Where `npm run ferretdb:build` puts the server (from `test/ferretdb`, the version its go.mod pins). */
export const FERRETDB_BIN = join(ROOT, '.tmp', 'ferretdb', 'ferretdb');

/**
 * Builds the pinned FerretDB when Go is installed (incremental: a second build takes seconds). Returns
 * why it could not, or undefined when the binary is there.
 */
export function buildFerretDb(): string | undefined {
  const go = spawnSync('go', ['version'], { encoding: 'utf8' });
  if (go.error || go.status !== 0) {
    return existsSync(FERRETDB_BIN) ? undefined : 'Go is not installed, so FerretDB cannot be built';
  }
  const built = spawnSync('go', ['build', '-o', FERRETDB_BIN, '.'], {
    cwd: join(ROOT, 'test', 'ferretdb'),
    encoding: 'utf8',
  });
  if (built.status !== 0) return `building FerretDB failed: ${(built.stderr || String(built.error)).trim()}`;
  return undefined;
}

/**
 * A FerretDB of the tests' own (SQLite backend, a temporary directory, a free port): the MongoDB-wire
 * server the MongoDB adapter's suites run against when MONGO_URL is not given.
 */
export class FerretDbProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    private readonly dir: string,
  ) {}

  /** The URL of a database of its own for the run. */
  get url(): string {
    return `mongodb://127.0.0.1:${this.port}/docs_test`;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  static async start(): Promise<FerretDbProcess> {
    const dir = mkdtempSync(join(tmpdir(), 'test-ferretdb-'));
    const port = await freePort();
    const child = spawn(FERRETDB_BIN, ['-listen', `127.0.0.1:${port}`, '-dir', dir], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
    });
    const server = new FerretDbProcess(child, port, dir);
    await server.ready(() =>
      child.exitCode !== null || child.signalCode !== null
        ? new Error(`FerretDB exited at start: ${stderr.trim()}`)
        : undefined,
    );
    return server;
  }

  /** Waits until the server answers a ping. */
  private async ready(failed: () => Error | undefined): Promise<void> {
    const { MongoClient } = await import('mongodb');
    await retryUntil(
      async () => {
        const client = new MongoClient(this.url, { serverSelectionTimeoutMS: 500 });
        try {
          await client.db('admin').command({ ping: 1 });
        } finally {
          await client.close();
        }
      },
      { failed, timeoutMs: 15_000 },
    );
  }

  async stop(): Promise<void> {
    await endProcess(this.child, 'SIGTERM');
    rmSync(this.dir, { recursive: true, force: true });
  }
}
