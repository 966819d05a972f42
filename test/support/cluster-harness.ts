import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { builtFile, childEnv, endProcess, type ServerProcess, startServer } from './process-harness';

export const INTERNAL_TOKEN = 'cluster-internal-token-0123456789abcdef';
export const CLUSTER_BOOTSTRAP_TOKEN = 'cluster-bootstrap-token-0123456789abcdef';

export type ServiceName = 'gateway' | 'command' | 'query' | 'projector' | 'worker';

/** The environment of a test cluster's services on embedded storage in `dataDir`, `extra` over it. */
export function clusterEnv(dataDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATA_DIR: dataDir,
    INTERNAL_TOKEN,
    BOOTSTRAP_TOKEN: CLUSTER_BOOTSTRAP_TOKEN,
    LOG_LEVEL: 'warn',
    PUBLIC_URL: 'http://docs.test',
    // One key for every replica, as a deployment sets it: a download link works wherever it lands.
    SIGNING_KEY: 'cluster-signing-key-0123456789abcdefghij',
    CONSISTENCY_TIMEOUT_MS: '15000',
    ...extra,
  };
}

export interface GatewayReply<B = unknown> {
  status: number;
  body: B;
  etag: string | null;
}

/**
 * A JSON request to a cluster's gateway as the bootstrap user (`ifMatch` as the If-Match header); the
 * body parsed, undefined when empty.
 */
export async function gatewayRequest<B = unknown>(
  gateway: { url: string },
  method: string,
  path: string,
  body?: unknown,
  ifMatch?: string,
): Promise<GatewayReply<B>> {
  const response = await fetch(`${gateway.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${CLUSTER_BOOTSTRAP_TOKEN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(ifMatch === undefined ? {} : { 'if-match': ifMatch }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? JSON.parse(text) : undefined,
    etag: response.headers.get('etag'),
  };
}

export interface RunningService extends ServerProcess {
  name: ServiceName;
}

/** Processes of one cluster on this machine, sharing storage (embedded, or the servers the env names). */
export class Cluster {
  readonly services: RunningService[] = [];

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  async start(name: ServiceName, extraEnv: NodeJS.ProcessEnv = {}): Promise<RunningService> {
    const script = builtFile('apps', name, 'src', 'main.js');
    const service = { ...(await startServer(name, script, { ...this.env, ...extraEnv })), name };
    this.services.push(service);
    return service;
  }

  /** SIGKILL: no shutdown hook runs, as in a crash. */
  kill(service: RunningService): Promise<void> {
    return endProcess(service.process, 'SIGKILL');
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.services.map((s) => endProcess(s.process, 'SIGTERM')));
  }

  /** Runs the CLI against the cluster's storage. */
  async cli(...args: string[]): Promise<string> {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [builtFile('apps', 'cli', 'src', 'main.js'), ...args],
      {
        env: childEnv(this.env),
      },
    );
    return stdout.trim();
  }
}
