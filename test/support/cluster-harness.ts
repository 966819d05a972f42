import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '..', '..');
export const INTERNAL_TOKEN = 'cluster-internal-token-0123456789abcdef';
export const CLUSTER_BOOTSTRAP_TOKEN = 'cluster-bootstrap-token-0123456789abcdef';

export function freePort(): Promise<number> {
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

export type ServiceName = 'gateway' | 'command' | 'query' | 'projector' | 'worker';

export interface RunningService {
  name: ServiceName;
  port: number;
  url: string;
  process: ChildProcess;
  output: string[];
}

/** Processes of one cluster on this machine, sharing storage (embedded, or the servers the env names). */
export class Cluster {
  readonly services: RunningService[] = [];

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  async start(name: ServiceName, extraEnv: NodeJS.ProcessEnv = {}): Promise<RunningService> {
    const port = await freePort();
    const child = spawn(process.execPath, [join(ROOT, 'dist', 'apps', name, 'src', 'main.js')], {
      env: { ...this.env, ...extraEnv, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const service: RunningService = {
      name,
      port,
      url: `http://127.0.0.1:${port}`,
      process: child,
      output: [],
    };
    child.stdout?.on('data', (d) => service.output.push(String(d)));
    child.stderr?.on('data', (d) => service.output.push(String(d)));
    this.services.push(service);
    await this.waitReady(service);
    return service;
  }

  private async waitReady(service: RunningService): Promise<void> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      if (service.process.exitCode !== null) {
        throw new Error(`${service.name} exited: ${service.output.join('')}`);
      }
      try {
        const response = await fetch(`${service.url}/ready`);
        if (response.ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`${service.name} not ready: ${service.output.join('')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** SIGKILL: no shutdown hook runs, as in a crash. */
  kill(service: RunningService): Promise<void> {
    return new Promise((resolve) => {
      if (service.process.exitCode !== null) return resolve();
      service.process.once('exit', () => resolve());
      service.process.kill('SIGKILL');
    });
  }

  async stopAll(): Promise<void> {
    await Promise.all(
      this.services.map(
        (s) =>
          new Promise<void>((resolve) => {
            if (s.process.exitCode !== null || s.process.signalCode !== null) return resolve();
            s.process.once('exit', () => resolve());
            s.process.kill('SIGTERM');
            setTimeout(() => s.process.kill('SIGKILL'), 5_000).unref();
          }),
      ),
    );
  }

  /** Runs the CLI against the cluster's storage. */
  async cli(...args: string[]): Promise<string> {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'dist', 'apps', 'cli', 'src', 'main.js'), ...args],
      {
        env: this.env,
      },
    );
    return stdout.trim();
  }
}
