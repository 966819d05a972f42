import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** The repository's root. */
export const ROOT = join(__dirname, '..', '..');

/**
 * A file of the build in dist/, e.g. `builtFile('apps', 'standalone', 'src', 'main.js')`: what runs in
 * a process (or thread) of its own runs compiled code. Fails plainly when the build is missing.
 */
export function builtFile(...segments: string[]): string {
  const path = join(ROOT, 'dist', ...segments);
  if (!existsSync(path))
    throw new Error(`dist/${segments.join('/')} is missing: run \`npm run build\` first`);
  return path;
}

/** A free TCP port on loopback. */
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

/**
 * Resolves once the redis-server on `port` of loopback answers PING (it answers nothing but LOADING
 * while it loads its append-only file); fails after `timeoutMs`, or at once when `failed()` names a
 * reason to stop waiting (the server process exited).
 */
export async function waitForRedis(
  port: number,
  options: { timeoutMs?: number; failed?: () => Error | undefined } = {},
): Promise<void> {
  const { Redis } = await import('ioredis');
  await retryUntil(async () => {
    const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0 });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.ping();
    } finally {
      client.disconnect();
    }
  }, options);
}

/**
 * Runs `attempt` until it resolves, every 50 ms; rethrows its last error after `timeoutMs`, or at once
 * what `failed` reports (the server process exited).
 */
export async function retryUntil(
  attempt: () => Promise<void>,
  options: { timeoutMs?: number; failed?: () => Error | undefined } = {},
): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    try {
      await attempt();
      return;
    } catch (error) {
      const failure = options.failed?.();
      if (failure) throw failure;
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** Whether a child process has ended (by exiting or by a signal). */
export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Sends `signal` and resolves once the process has ended; SIGKILL follows after `killAfterMs` if it has not. */
export function endProcess(
  child: ChildProcess,
  signal: NodeJS.Signals = 'SIGKILL',
  killAfterMs = 5_000,
): Promise<void> {
  if (hasExited(child)) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
    if (signal !== 'SIGKILL') setTimeout(() => child.kill('SIGKILL'), killAfterMs).unref();
  });
}

/** A server of this repository running as a process of its own (a crash is a real SIGKILL). */
export interface ServerProcess {
  name: string;
  port: number;
  url: string;
  process: ChildProcess;
  /** What it wrote to standard output and error, for failure messages. */
  output: string[];
}

/** Ready when GET /ready answers 2xx. */
export async function answersReady(url: string): Promise<boolean> {
  return (await fetch(`${url}/ready`)).ok;
}

/**
 * The environment for a child process of the tests: the MongoDB-wire server the test setup started for
 * the suites of the MongoDB adapter is for them only; a child inherits it only when given on purpose
 * (another URL, e.g. a database of its own), so servers and CLIs keep their embedded views otherwise.
 */
export function childEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (!process.env.TEST_MONGO_SERVER || env.MONGO_URL !== process.env.MONGO_URL) return env;
  const { MONGO_URL: _inherited, ...rest } = env;
  return rest;
}

/**
 * Runs the built server `script` (see `builtFile`) on a free port of loopback, PORT and HOST set over
 * `env`, and resolves once `ready(url)` holds (by default, /ready answers 2xx); fails with its output
 * if it exits first or is not ready within `timeoutMs`.
 */
export async function startServer(
  name: string,
  script: string,
  env: NodeJS.ProcessEnv,
  options: { ready?: (url: string) => Promise<boolean>; timeoutMs?: number } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [script], {
    env: { ...childEnv(env), PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const server: ServerProcess = { name, port, url: `http://127.0.0.1:${port}`, process: child, output: [] };
  child.stdout?.on('data', (d) => server.output.push(String(d)));
  child.stderr?.on('data', (d) => server.output.push(String(d)));
  const ready = options.ready ?? answersReady;
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (;;) {
    if (hasExited(child)) throw new Error(`${name} exited: ${server.output.join('')}`);
    try {
      if (await ready(server.url)) return server;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await endProcess(child);
      throw new Error(`${name} not ready: ${server.output.join('')}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
