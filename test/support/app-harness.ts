import { createHash, randomUUID } from 'node:crypto';
import { createStandaloneApp } from '@app/composition/create-app';
import type { StorageConfig } from '@app/composition/storage';
import { IdentityService } from '@app/identity/write/identity.commands';
import { OrganizationService } from '@app/organizations/write/organization.commands';
import type { TokenDoc } from '@app/platform/auth/access';
import { ManualClock } from '@app/platform/clock/clock';
import {
  type Config,
  DEFAULT_BODY_LIMIT_BYTES,
  DEFAULT_RATE_LIMIT_MAX,
  DEFAULT_RATE_LIMIT_WINDOW_MS,
} from '@app/platform/config/config';
import { hashSecret } from '@app/platform/domain/ids';
import type { Role } from '@app/platform/domain/roles';
import type { LogDestination } from '@app/platform/observability/logger';
import { LIVE_PROJECTOR, type LiveProjector } from '@app/platform/projector/projector';
import type { CommandContext } from '@app/platform/write/command-context';
import { GitBookAPI } from '@gitbook/api';
import type { INestApplicationContext } from '@nestjs/common';
import { checkingFetch } from './checked-responses';
import { removeDir, tempDir } from './temp-dir';

export { removeDir } from './temp-dir';

export const BOOTSTRAP_TOKEN = 'test-bootstrap-token-0123456789abcdef';
/** The context of commands a test runs directly on the app's services, as a script would. */
export const SETUP: CommandContext = { source: 'script', correlationId: 'test-setup', causationId: null };

/**
 * With `TEST_VIEWS=mongo` (the e2e-mongo project), the app keeps its views in a database of its own on
 * MONGO_URL, its events in the embedded log: the same suites prove every read model on both stores.
 */
function viewsOnMongo(dataDir: string): Partial<Config> {
  if (process.env.TEST_VIEWS !== 'mongo' || !process.env.MONGO_URL) return {};
  const url = new URL(process.env.MONGO_URL);
  // One database per data directory: an app restarted over the same data finds its views again.
  url.pathname = `/views_${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}`;
  return { mongoUrl: url.toString() };
}

export interface TestAppOptions {
  /** The data directory; a new temporary one when absent. */
  dataDir?: string;
  /** The app's clock, which the test can move; a new one (at real time) when absent. */
  clock?: ManualClock;
  /**
   * Single settings over what `npm start` runs (storage thread included): limits, `redisUrl` for BullMQ
   * and the rate limit store, … `storageThread: false` runs the projector on the serving thread: only
   * for a suite that needs it, saying why where it opts out.
   */
  config?: Partial<Config>;
  /** Where the app's JSON log lines go; standard output when absent. */
  logDestination?: LogDestination;
}

export interface TestApp {
  url: string;
  dataDir: string;
  /** Where its stores are, for another process's (the CLI's) connections to the same storage. */
  storage: StorageConfig;
  clock: ManualClock;
  token: string;
  organizationId: string;
  userId: string;
  built: Awaited<ReturnType<typeof createStandaloneApp>>;
  /**
   * The GitBook client on the app. It and `http` check every 2xx answer on a /v1 route against GitBook's
   * response schema for it, strictly (checked-responses.ts): a test receiving a body that is not what
   * the API promises fails there.
   */
  api(token?: string): GitBookAPI;
  http(
    method: string,
    path: string,
    options?: { token?: string | null; body?: unknown; raw?: string; headers?: Record<string, string> },
  ): Promise<Reply>;
  close(): Promise<void>;
}

export interface Reply {
  status: number;
  body: unknown;
  headers: Headers;
}

/** Resolves once `check` holds, polling; fails after `timeoutMs`. */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** What keeps the app's views: the projector in process, or the storage thread's stand-in for it. */
export function liveProjector(app: TestApp): LiveProjector {
  return app.built.app.get<symbol, LiveProjector>(LIVE_PROJECTOR);
}

export function tempDataDir(): string {
  return tempDir('docs-data-');
}

/**
 * Starts the standalone app on a free port over a data directory, with a clock the test can move, as
 * `npm start` runs it: with its storage thread, which runs compiled code (dist/, which Jest's global
 * setup compiles again when a source is newer: fresh-build.ts).
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = options.dataDir ?? tempDataDir();
  const clock = options.clock ?? new ManualClock();
  const config: Config = {
    port: 0,
    host: '127.0.0.1',
    dataDir,
    bootstrapToken: BOOTSTRAP_TOKEN,
    logLevel: 'error',
    publicUrl: 'http://docs.test',
    purgeSweepMs: 60_000,
    inviteLinkMaxAgeDays: 30,
    ssoSessionHours: 12,
    rateLimitMax: DEFAULT_RATE_LIMIT_MAX,
    rateLimitWindowMs: DEFAULT_RATE_LIMIT_WINDOW_MS,
    bodyLimitBytes: DEFAULT_BODY_LIMIT_BYTES,
    storageThread: true,
    signingKey: 'test-signing-key-0123456789abcdefghijkl',
    ...viewsOnMongo(dataDir),
    ...options.config,
  };
  let built: Awaited<ReturnType<typeof createStandaloneApp>> | undefined;
  try {
    built = await createStandaloneApp(config, clock, { logDestination: options.logDestination });
    await built.app.listen({ port: 0, host: '127.0.0.1' });
    return await testApp(built, config, clock);
  } catch (error) {
    await built?.app.close();
    if (options.dataDir === undefined) removeDir(dataDir);
    throw error;
  }
}

/** `TestApp['http']` against `url` through `fetcher`, with `token` unless the call gives another (null: none). */
export function httpTo(url: string, token: string, fetcher: typeof fetch = fetch): TestApp['http'] {
  return async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    const bearer = opts.token === undefined ? token : opts.token;
    if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
    const body = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetcher(`${url}${path}`, { method, headers, body });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
  };
}

async function testApp(
  built: Awaited<ReturnType<typeof createStandaloneApp>>,
  config: Config,
  clock: ManualClock,
): Promise<TestApp> {
  const url = (await built.app.getUrl()).replace('[::1]', '127.0.0.1');
  const token = config.bootstrapToken ?? BOOTSTRAP_TOKEN;
  const checkedFetch = checkingFetch();
  const http = httpTo(url, token, checkedFetch);
  const orgs = (await http('GET', '/v1/orgs')).body as { items: { id: string }[] };
  const me = await built.storage.views.get<TokenDoc>('tokens', hashSecret(token));
  return {
    url,
    dataDir: config.dataDir,
    storage: { dataDir: config.dataDir, mongoUrl: config.mongoUrl },
    clock,
    token,
    organizationId: orgs.items[0].id,
    userId: me?.userId ?? '',
    built,
    api: (t = token) =>
      new GitBookAPI({ endpoint: url, authToken: t, serviceBinding: { fetch: checkedFetch } }),
    http,
    close: async () => {
      await built.app.close();
    },
  };
}

/** The app of the enclosing `describe` (see `useTestApp`). */
export interface CurrentTestApp {
  (): TestApp;
  /** Closes the app and starts it again over the same data directory and clock, as a server restarts. */
  restart(): Promise<TestApp>;
}

/** Starts a standalone app for the enclosing `describe` and removes it with its data afterwards. */
export function useTestApp(options: TestAppOptions = {}): CurrentTestApp {
  let app: TestApp | undefined;
  let dataDir: string | undefined;
  beforeAll(async () => {
    app = await startTestApp(options);
    dataDir = app.dataDir;
  });
  afterAll(async () => {
    await app?.close();
    if (dataDir) removeDir(dataDir);
  });
  const current = () => {
    if (!app) throw new Error('the test app is not started yet');
    return app;
  };
  const restart = async () => {
    const previous = current();
    app = undefined;
    await previous.close();
    app = await startTestApp({ ...options, dataDir: previous.dataDir, clock: previous.clock });
    return app;
  };
  return Object.assign(current, { restart });
}

/** Runs `use` with an app of its own, closed and removed with its data afterwards: an app for one test. */
export function withTestApp<T>(options: TestAppOptions, use: (app: TestApp) => Promise<T>): Promise<T> {
  return withTestApps([options], ([app]) => use(app));
}

/** `withTestApp` for several apps at once, one per options, started together. */
export async function withTestApps<T>(
  options: TestAppOptions[],
  use: (apps: TestApp[]) => Promise<T>,
): Promise<T> {
  const started = await Promise.allSettled(options.map((each) => startTestApp(each)));
  const apps = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  try {
    for (const result of started) if (result.status === 'rejected') throw result.reason;
    return await use(apps);
  } finally {
    await Promise.all(apps.map((app) => app.close()));
    for (const app of apps) removeDir(app.dataDir);
  }
}

/**
 * Where a test writes directly, as a script would: an app's services over its storage, and a wait until
 * the views that app answers from include a position. A TestApp is one (`setupOf`); so is a cluster's.
 */
export interface Setup {
  /** The bootstrap user, who administers the first organization. */
  userId: string;
  services: Pick<INestApplicationContext, 'get'>;
  waitFor(position: number): Promise<void>;
}

export function setupOf(app: TestApp | Setup): Setup {
  if (!('built' in app)) return app;
  return { userId: app.userId, services: app.built.app, waitFor: (p) => liveProjector(app).waitFor(p) };
}

/** A new user with a token and, when given, a membership with `role`; views are up to date on return. */
export async function addUser(
  app: TestApp | Setup,
  membership?: { organizationId: string; role: Role },
): Promise<{ userId: string; token: string }> {
  const setup = setupOf(app);
  const identity = setup.services.get(IdentityService);
  const { userId } = await identity.createUser(
    { displayName: 'Test User', email: `${randomUUID()}@example.com` },
    SETUP,
  );
  const issued = await identity.issueToken(userId, 'test', SETUP);
  let position = issued.position;
  if (membership) {
    const orgs = setup.services.get(OrganizationService);
    ({ position } = await orgs.addMember(membership.organizationId, userId, membership.role, SETUP));
  }
  await setup.waitFor(position);
  return { userId, token: issued.token };
}

/** A second organization administered by the bootstrap user. */
export async function addOrganization(app: TestApp | Setup, title = 'Other organization'): Promise<string> {
  const setup = setupOf(app);
  const { organizationId, position } = await setup.services
    .get(OrganizationService)
    .create(title, setup.userId, SETUP);
  await setup.waitFor(position);
  return organizationId;
}
