import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { DEFAULT_CUSTOMIZATION } from '@app/sites/domain/site-customization';

/**
 * GitBook's open-source site renderer (`packages/gitbook` of GitbookIO/gitbook, a Next.js app) built
 * under RENDERER_DIR (its source in `src/`), and what a check needs to run it against the app: see
 * test/renderer/README.md.
 */
export interface RendererBuild {
  /** The Next.js app: `src/packages/gitbook`. */
  app: string;
  /** The API URL the build has baked in (`.next/GITBOOK_API_URL.txt`, else the build default). */
  apiUrl: string;
  /** The `next` binary of the source's workspace. */
  next: string;
}

/** The renderer build under RENDERER_DIR, or why there is none. */
export function rendererBuild(): RendererBuild | { missing: string } {
  const dir = process.env.RENDERER_DIR;
  if (!dir) return { missing: 'RENDERER_DIR is not set' };
  const app = join(dir, 'src', 'packages', 'gitbook');
  if (!existsSync(join(app, '.next', 'BUILD_ID')))
    return { missing: `RENDERER_DIR (${dir}) holds no renderer build (src/packages/gitbook/.next/BUILD_ID)` };
  const baked = join(app, '.next', 'GITBOOK_API_URL.txt');
  const apiUrl = existsSync(baked) ? readFileSync(baked, 'utf8').trim() : 'http://127.0.0.1:18801';
  return { app, apiUrl, next: join(dir, 'src', 'node_modules', '.bin', 'next') };
}

/** Where the renderer serves, and the host its build answers for (`GITBOOK_URL`). */
export const RENDERER_PORT = 3000;
export const SITE_HOST = 'docs.example.test';

/** The page of the site at `path`, as a reader's browser asks the renderer for it. */
export const sitePage = (path: string) => `http://localhost:${RENDERER_PORT}/url/${SITE_HOST}/${path}`;

export interface RunningRenderer {
  stop(): Promise<void>;
  /** Every API call the renderer made, with the app's answer status. */
  calls: { method: string; path: string; status: number }[];
}

interface SiteSpace {
  id: string;
  title: string;
  organization: string;
  createdAt: string;
}

/**
 * Runs the renderer against the app for one space, published as a site at SITE_HOST: until the app
 * serves sites itself, a stand-in on the build's API URL answers the two site calls (the URL's
 * published content, and the site with its structure and customization) and passes every other call
 * to the app with `token`, the reader's.
 */
export async function runRenderer(
  build: RendererBuild,
  backend: { url: string; token: string; space: SiteSpace },
): Promise<RunningRenderer> {
  const calls: RunningRenderer['calls'] = [];
  const standIn = createServer((req, res) => {
    answer(req, res, backend, calls).catch((error: Error) => {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 502, message: error.message } }));
    });
  });
  const api = new URL(build.apiUrl);
  await new Promise<void>((resolve, reject) => {
    standIn.once('error', reject);
    standIn.listen(Number(api.port), api.hostname, resolve);
  });
  const next = spawn(build.next, ['start', '-p', String(RENDERER_PORT), '-H', '127.0.0.1'], {
    cwd: build.app,
    env: {
      ...process.env,
      GITBOOK_URL: `http://localhost:${RENDERER_PORT}`,
      GITBOOK_API_URL: build.apiUrl,
      GITBOOK_DISABLE_TRACKING: '1',
      NEXT_TELEMETRY_DISABLED: '1',
    },
    // Its own process group, ended whole: `next start` runs its server in a child process.
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  next.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4000);
  });
  const running = { stop: () => stopAll(next, standIn), calls };
  try {
    await untilServing(next, () => errors);
  } catch (error) {
    await running.stop();
    throw error;
  }
  return running;
}

async function untilServing(next: ChildProcess, errors: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (next.exitCode !== null) throw new Error(`the renderer exited (${next.exitCode}): ${errors()}`);
    const served = await fetch(`http://127.0.0.1:${RENDERER_PORT}/~gitbook/static/icons/sprites/regular.svg`)
      .then((r) => r.ok)
      .catch(() => false);
    if (served) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the renderer did not serve within 90 s: ${errors()}`);
}

async function stopAll(next: ChildProcess, standIn: Server): Promise<void> {
  const signal = (name: NodeJS.Signals) => {
    try {
      if (next.pid) process.kill(-next.pid, name);
    } catch {
      // the group is gone
    }
  };
  if (next.exitCode === null && next.signalCode === null) {
    let timer: NodeJS.Timeout | undefined;
    const exited = new Promise<boolean>((resolve) => next.once('exit', () => resolve(true)));
    signal('SIGTERM');
    const ended = await Promise.race([
      exited,
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), 10_000);
      }),
    ]);
    clearTimeout(timer);
    if (!ended) signal('SIGKILL');
  }
  standIn.closeAllConnections();
  await new Promise((resolve) => standIn.close(resolve));
}

const SITE = 'site_renderer_check';
const SITE_SPACE = 'sitesp_renderer_check';

async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  backend: { url: string; token: string; space: SiteSpace },
  calls: RunningRenderer['calls'],
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const path = (req.url ?? '/').split('?')[0];
  const json = (status: number, value: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(value));
  };
  const { space } = backend;
  if (req.method === 'POST' && path === '/v1/urls/published') {
    const url = new URL((JSON.parse(body.toString() || '{}') as { url: string }).url);
    if (url.host !== SITE_HOST) return json(404, { error: { code: 404, message: 'No site at this URL' } });
    const pathname = url.pathname.replace(/^\/+|\/+$/g, '');
    return json(200, {
      site: SITE,
      siteSpace: SITE_SPACE,
      space: space.id,
      organization: space.organization,
      pathname,
      basePath: '/',
      siteBasePath: '/',
      complete: true,
      canonicalUrl: `https://${SITE_HOST}/${pathname}`,
      apiToken: readerToken(space),
    });
  }
  if (req.method === 'GET' && path === `/v1/orgs/${space.organization}/sites/${SITE}/published`)
    return json(200, publishedSite(space));
  const forwarded = await fetch(`${backend.url}${req.url}`, {
    method: req.method,
    headers: {
      authorization: `Bearer ${backend.token}`,
      ...(req.headers['content-type'] ? { 'content-type': req.headers['content-type'] } : {}),
    },
    body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
  });
  calls.push({ method: req.method ?? 'GET', path, status: forwarded.status });
  const bytes = Buffer.from(await forwarded.arrayBuffer());
  res.writeHead(forwarded.status, {
    'content-type': forwarded.headers.get('content-type') ?? 'application/octet-stream',
  });
  res.end(bytes);
}

/** A JWT-shaped token with an expiry: the renderer reads `exp` without verifying it. */
function readerToken(space: SiteSpace): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ space: space.id, iat: now, exp: now + 3600 })}.unsigned`;
}

/** GitBook's `PublishedContentSite` for a site of one space, with the app's default customization. */
function publishedSite(space: SiteSpace) {
  const published = `https://${SITE_HOST}/`;
  const customization = { ...DEFAULT_CUSTOMIZATION, title: space.title };
  return {
    object: 'published-content-site',
    site: {
      object: 'site',
      id: SITE,
      type: 'ultimate',
      appliedType: 'ultimate',
      title: space.title,
      visibility: 'public',
      defaultLevel: 'inherit',
      permissions: {
        view: true,
        access: true,
        edit: false,
        create: false,
        admin: false,
        installIntegration: false,
        viewAdaptiveSchema: false,
        editAdaptiveSchema: false,
      },
      published: true,
      createdAt: space.createdAt,
      siteSpaces: 1,
      features: [],
      urls: { location: published, app: published, published },
    },
    structure: {
      type: 'siteSpaces',
      structure: [
        {
          object: 'site-space',
          id: SITE_SPACE,
          path: 'default',
          space,
          title: space.title,
          default: true,
          draft: false,
          hidden: false,
          urls: { published },
        },
      ],
    },
    customizations: { site: customization, siteSpaces: { [SITE_SPACE]: customization } },
    scripts: [],
  };
}
