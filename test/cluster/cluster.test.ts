import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { PROJECTION_LIST } from '@app/composition/catalog';
import { openBlobStore, openReadStore, type StorageConfig } from '@app/composition/storage';
import { pdfExportName } from '@app/pdf/domain/pdf-export';
import { SqliteEventStore } from '@app/platform/eventstore/sqlite-event-store';
import { Projector } from '@app/platform/projector/projector';
import type { ReadStore } from '@app/platform/readstore/read-store.port';
import { GitBookAPI } from '@gitbook/api';
import { MongoClient } from 'mongodb';
import {
  CLUSTER_BOOTSTRAP_TOKEN,
  Cluster,
  clusterEnv,
  gatewayRequest,
  type RunningService,
} from '../support/cluster-harness';
import { describeIf, MONGO_WIRE } from '../support/describe-if';
import { endpointTour } from '../support/endpoint-tour';
import { removeDir, tempDir } from '../support/temp-dir';

async function dump(views: ReadStore): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const name of (await views.collections()).sort()) out[name] = await views.all(name);
  return out;
}

/** Opens the views `storage` names, as another process would, and closes them after `use`. */
async function withViews<T>(storage: StorageConfig, use: (views: ReadStore) => Promise<T>): Promise<T> {
  const views = await openReadStore(storage);
  try {
    return await use(views);
  } finally {
    await views.close();
  }
}

/** `server` (a MongoDB connection string) with `database` as its database. */
function onDatabase(server: string, database: string): string {
  const url = new URL(server);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * Gateway, two command replicas, two query replicas, a projector and a worker as separate processes
 * with the events in the embedded log of one shared data directory (Redis from the test setup), with
 * replicas killed mid-run. The views are in that directory too or, given `mongoServer` (MONGO_URL), in
 * a database of the test's own there, named in every service's MONGO_URL and dropped at the end.
 */
function clusterBehindGateway(mongoServer?: string): void {
  const database = `cluster_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  /** Where the views of `dataDir` are kept: on `mongoServer` in `name` when given. */
  const viewsOf = (dataDir: string, name: string): StorageConfig => ({
    dataDir,
    mongoUrl: mongoServer && onDatabase(mongoServer, name),
  });
  let dataDir: string;
  /** The cluster's storage: the log in dataDir, the views where viewsOf puts them. */
  let storage: StorageConfig;
  let cluster: Cluster;
  let gateway: RunningService;
  let commands: RunningService[];
  let queries: RunningService[];
  let projector: RunningService;
  let org: string;

  const http = (method: string, path: string, body?: unknown) => gatewayRequest(gateway, method, path, body);

  beforeAll(async () => {
    dataDir = tempDir('cluster-');
    storage = viewsOf(dataDir, database);
    cluster = new Cluster(clusterEnv(dataDir, storage.mongoUrl ? { MONGO_URL: storage.mongoUrl } : {}));
    commands = await Promise.all([cluster.start('command'), cluster.start('command')]);
    queries = await Promise.all([cluster.start('query'), cluster.start('query')]);
    [projector] = await Promise.all([cluster.start('projector'), cluster.start('worker')]);
    gateway = await cluster.start('gateway', {
      COMMAND_URLS: commands.map((s) => s.url).join(','),
      QUERY_URLS: queries.map((s) => s.url).join(','),
    });
    const orgs = (await http('GET', '/v1/orgs')).body as { items: { id: string }[] };
    expect(orgs.items).toHaveLength(1);
    org = orgs.items[0].id;
  }, 60_000);

  afterAll(async () => {
    await cluster?.stopAll();
    if (dataDir) removeDir(dataDir);
    if (!mongoServer) return;
    const client = new MongoClient(mongoServer);
    try {
      await Promise.all([database, `${database}_fresh`].map((name) => client.db(name).dropDatabase()));
    } finally {
      await client.close();
    }
  });

  it('bootstraps once although two command replicas started on an empty log', async () => {
    const users = await withViews(storage, (views) => views.all('users'));
    expect(users).toHaveLength(1);
  });

  it('serves every endpoint through the gateway', async () => {
    const userId = (await withViews(storage, (views) => views.all('users')))[0].id;
    const other = await cluster.cli('org:create', '--title', 'Cluster target', '--owner', userId);
    const api = new GitBookAPI({ endpoint: gateway.url, authToken: CLUSTER_BOOTSTRAP_TOKEN });
    // The CLI wrote straight to the log: wait for the gateway's views to include it.
    for (let i = 0; i < 100 && (await http('GET', `/v1/orgs/${other}`)).status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    await endpointTour(api, http, org, other, (path, init) => fetch(`${gateway.url}${path}`, init));
    // The gateway validates bodies once the route's authorization passed (guards run before pipes).
    const bad = await http('POST', `/v1/orgs/${org}/spaces`, { colour: 'red' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: { code: 400, message: expect.stringMatching(/colour/) } });
    // A resource that does not exist is a 404 whatever the body.
    expect((await http('PATCH', '/v1/spaces/whatever', { colour: 'red' })).status).toBe(404);
    expect((await fetch(`${gateway.url}/v1/orgs`)).status).toBe(401);
  });

  it("carries the caller's X-Request-Id through the gateway into the events a command service appends", async () => {
    const response = await fetch(`${gateway.url}/v1/orgs/${org}/spaces`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${CLUSTER_BOOTSTRAP_TOKEN}`,
        'content-type': 'application/json',
        'x-request-id': 'through-gateway-1',
      },
      body: JSON.stringify({ title: 'Traced' }),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-request-id')).toBe('through-gateway-1');
    const { id } = (await response.json()) as { id: string };
    const events = new SqliteEventStore({ path: join(dataDir, 'events.sqlite') });
    try {
      const [created] = await events.readStream(`space-${id}`);
      expect(created.metadata.correlationId).toBe('through-gateway-1');
    } finally {
      await events.close();
    }
  });

  it('renders a PDF export in the worker and serves an uploaded file from every query replica', async () => {
    const space = (await http('POST', `/v1/orgs/${org}/spaces`, { title: 'Exported' })).body as {
      id: string;
    };
    const cr = (await http('POST', `/v1/spaces/${space.id}/change-requests`, {})).body as { id: string };
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256));
    const written = await http(
      'POST',
      `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`,
      {
        changes: [
          { operation: 'insert_page', title: 'Printed', document: { markdown: 'On paper.\n' } },
          {
            operation: 'insert_files',
            files: [
              { name: 'data.bin', contentType: 'application/octet-stream', base64: bytes.toString('base64') },
            ],
          },
        ],
      },
    );
    expect(written.status).toBe(200);
    const [file] = (written.body as { insertedFiles: { downloadURL: string }[] }).insertedFiles;
    expect((await http('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`)).status).toBe(200);

    const { url } = (await http('GET', `/v1/spaces/${space.id}/pdf`)).body as { url: string };
    const fetchBytes = async (link: string) => {
      const { pathname, search } = new URL(link);
      const response = await fetch(`${gateway.url}${pathname}${search}`);
      expect(response.status).toBe(200);
      return Buffer.from(await response.arrayBuffer());
    };
    const pdfs = [await fetchBytes(url), await fetchBytes(url)];
    expect(pdfs[0].subarray(0, 5).toString()).toBe('%PDF-');
    expect(Buffer.compare(pdfs[0], pdfs[1])).toBe(0);
    // The query replica that handed out the link enqueued the job; the worker rendered and kept it,
    // as a rendition that no file download reaches.
    const { revision } = (await http('GET', `/v1/spaces/${space.id}`)).body as { revision: string };
    const blobs = await openBlobStore(storage);
    try {
      const name = pdfExportName({ space: space.id, revision, title: 'Exported' });
      expect(Buffer.compare((await blobs.rendition(name))?.bytes ?? Buffer.alloc(0), pdfs[0])).toBe(0);
    } finally {
      await blobs.close();
    }
    const key = createHash('sha256').update(pdfs[0]).digest('hex');
    expect((await fetch(`${gateway.url}/v1/downloads/files/${key}`)).status).toBe(404);
    // Several downloads, spread over both query replicas.
    for (const downloaded of await Promise.all(Array.from({ length: 4 }, () => fetchBytes(file.downloadURL))))
      expect(Buffer.compare(downloaded, bytes)).toBe(0);
  });

  it('stops accepting a token, a role or a membership on every query replica once it is revoked, lowered or removed', async () => {
    const userId = await cluster.cli('user:create', '--name', 'Cached', '--email', 'cached@example.com');
    await cluster.cli('member:add', '--org', org, '--user', userId, '--role', 'admin');
    const [tokenId, token] = (await cluster.cli('token:create', '--user', userId)).split(' ');
    const status = async (bearer: string) => {
      const response = await fetch(`${gateway.url}/v1/orgs/${org}/audit-events?limit=1`, {
        headers: { authorization: `Bearer ${bearer}` },
      });
      return response.status;
    };
    // The CLI writes straight to the log: each replica follows it at its own pace (polling every 100 ms),
    // so the change is awaited until a burst spread over the replicas all shows it, within 10 s.
    const settlesOn = async (bearer: string, expected: number) => {
      let seen: number[] = [];
      for (let i = 0; i < 200; i++) {
        seen = await Promise.all(Array.from({ length: 8 }, () => status(bearer)));
        if (seen.every((s) => s === expected)) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(seen).toEqual(Array(8).fill(expected));
    };
    await settlesOn(token, 200);
    await cluster.cli('member:role', '--org', org, '--user', userId, '--role', 'read');
    await settlesOn(token, 403);
    // Removed over the API: the organization is hidden from them on every replica.
    expect((await http('DELETE', `/v1/orgs/${org}/members/${userId}`)).status).toBe(204);
    await settlesOn(token, 404);
    await cluster.cli('token:revoke', '--user', userId, '--token-id', tokenId);
    await settlesOn(token, 401);
  });

  it('a revoked grant stops working at once on every query replica', async () => {
    const userId = await cluster.cli('user:create', '--name', 'Guest', '--email', 'guest@example.com');
    await cluster.cli('member:add', '--org', org, '--user', userId, '--role', 'read');
    const token = (await cluster.cli('token:create', '--user', userId)).split(' ')[1];
    expect((await http('PATCH', `/v1/orgs/${org}/members/${userId}`, { role: null })).status).toBe(200);
    const space = (await http('POST', `/v1/orgs/${org}/spaces`, { title: 'Shared with a guest' })).body as {
      id: string;
    };
    const burst = () =>
      Promise.all(
        Array.from({ length: 8 }, async () => {
          const response = await fetch(`${gateway.url}/v1/spaces/${space.id}`, {
            headers: { authorization: `Bearer ${token}` },
          });
          return response.status;
        }),
      );
    const grant = { role: 'read', users: [userId] };
    expect((await http('POST', `/v1/spaces/${space.id}/permissions`, grant)).status).toBe(204);
    expect(await burst()).toEqual(Array(8).fill(200));
    // Written over the API, so the answer waits for the views: no replica may answer from before it.
    expect((await http('DELETE', `/v1/spaces/${space.id}/permissions/users/${userId}`)).status).toBe(205);
    expect(await burst()).toEqual(Array(8).fill(404));
  });

  it('loses no acknowledged write while a command replica, a query replica and the projector are killed', async () => {
    const writers = 6;
    const perWriter = 40;
    const acknowledged = new Map<string, string>();
    const failures: { status: number; message: string }[] = [];
    /** Set when a writer fails: the others stop, so the failure is reported without waiting for them. */
    let failed = false;
    const writer = async (w: number) => {
      let spaceId: string | undefined;
      for (let i = 0; i < perWriter && !failed; i++) {
        const title = `w${w}-${i}`;
        const reply = spaceId
          ? await http('PATCH', `/v1/spaces/${spaceId}`, { title })
          : await http('POST', `/v1/orgs/${org}/spaces`, { title });
        if (reply.status >= 200 && reply.status < 300) {
          const body = reply.body as { id: string; title: string };
          expect(body.title).toBe(title);
          spaceId = body.id;
          acknowledged.set(spaceId, title);
          // Read-your-writes: a GET right after the response sees the write, whichever replica answers.
          const seen = await http('GET', `/v1/spaces/${spaceId}`);
          expect([seen.status, (seen.body as { title: string }).title]).toEqual([200, title]);
        } else {
          failures.push({
            status: reply.status,
            message: (reply.body as { error: { message: string } }).error.message,
          });
        }
      }
    };
    const chaos = async () => {
      await new Promise((r) => setTimeout(r, 400));
      await cluster.kill(commands[0]);
      await new Promise((r) => setTimeout(r, 300));
      await cluster.kill(queries[0]);
      await new Promise((r) => setTimeout(r, 300));
      await cluster.kill(projector);
      await new Promise((r) => setTimeout(r, 300));
      projector = await cluster.start('projector');
    };
    // All settle before a failure is reported: chaos would otherwise start a projector after afterAll.
    const stopOthersOnFailure = (error: unknown) => {
      failed = true;
      throw error;
    };
    const settled = await Promise.allSettled([
      ...Array.from({ length: writers }, (_, w) => writer(w).catch(stopOthersOnFailure)),
      chaos(),
    ]);
    for (const result of settled) if (result.status === 'rejected') throw result.reason;

    process.stdout.write(`cluster chaos: ${acknowledged.size} spaces, ${failures.length} failed in flight\n`);
    // Only requests in flight to the killed command replica may fail, and only with the 502 that says so.
    expect(failures.filter((f) => f.status !== 502)).toEqual([]);
    expect(failures.length).toBeLessThanOrEqual(writers);
    expect(acknowledged.size).toBe(writers);
    for (const [spaceId, title] of acknowledged) {
      const reply = await http('GET', `/v1/spaces/${spaceId}`);
      expect([spaceId, reply.status, (reply.body as { title: string }).title]).toEqual([spaceId, 200, title]);
    }

    // The log holds each event once, and the views equal a fresh projection of it.
    const events = new SqliteEventStore({ path: join(dataDir, 'events.sqlite') });
    const live = await openReadStore(storage);
    const freshDir = tempDir('fresh-views-');
    const fresh = await openReadStore(viewsOf(freshDir, `${database}_fresh`));
    try {
      const all = await events.readAll(0, 1_000_000);
      expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
      for (
        let i = 0;
        i < 200 && (await live.getCheckpoint('projector')) < all[all.length - 1].position;
        i++
      ) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const rebuilt = new Projector(events, fresh, PROJECTION_LIST);
      await rebuilt.prepare();
      await rebuilt.apply(all);
      expect(await dump(live)).toEqual(await dump(fresh));
    } finally {
      // A MongoDB client left open would keep Jest from exiting after a failure.
      await Promise.all([events.close(), live.close(), fresh.close()]);
      removeDir(freshDir);
    }
  }, 120_000);
}

describe('cluster behind a gateway', () => clusterBehindGateway());

describeIf(
  Boolean(process.env.MONGO_URL),
  'cluster behind a gateway with its views on MongoDB-wire (MONGO_URL is not set)',
)(`cluster behind a gateway, views on MongoDB-wire ${MONGO_WIRE}`, () =>
  clusterBehindGateway(process.env.MONGO_URL),
);
