import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { PROJECTION_LIST } from '@app/composition/catalog';
import { SqliteEventStore } from '@app/platform/eventstore/sqlite-event-store';
import { Projector } from '@app/platform/projector/projector';
import { SqliteReadStore } from '@app/platform/readstore/sqlite-read-store';
import type { StorageThread } from '@app/platform/threads/storage-thread';
import { eventually, liveProjector, type TestApp, useTestApp } from '../support/app-harness';

// Not in e2e-mongo: it opens the data directory's SQLite log and views (views.sqlite) beside the running app.

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The standalone default: the log's commits and the projector on a storage thread. What the serving
 * thread must still guarantee: acknowledged writes in the log and in the next read, the views' changes
 * reaching its caches, reactions to the log (purges), rebuilds made elsewhere, and a thread that dies.
 */
describe('storage thread', () => {
  const current = useTestApp();
  const thread = (app: TestApp) => app.built.storage.thread as StorageThread;

  const createSpace = async (app: TestApp, title: string) => {
    const created = await app.http('POST', `/v1/orgs/${app.organizationId}/spaces`, { body: { title } });
    expect(created.status).toBe(201);
    return (created.body as { id: string }).id;
  };

  it('commits on the thread: a write is in the log and in its answer, and the views follow', async () => {
    const app = current();
    expect(thread(app)).toBeDefined();
    const id = await createSpace(app, 'Threaded');
    const patched = await app.http('PATCH', `/v1/spaces/${id}`, { body: { title: 'Changed' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ title: 'Changed' });
    expect(patched.headers.get('etag')).toBe('"1"');
    const stream = await app.built.storage.events.readStream(`space-${id}`);
    expect(stream.map((e) => e.type)).toEqual(['SpaceCreated', 'SpaceUpdated']);
    expect(liveProjector(app).checkpoint()).toBe(await app.built.storage.events.headPosition());
    expect((await app.http('GET', `/v1/spaces/${id}`)).body).toMatchObject({ title: 'Changed' });
  });

  it('purges a deleted space when its retention ends (reaction and job on the serving thread)', async () => {
    const app = current();
    const id = await createSpace(app, 'Doomed');
    expect((await app.http('DELETE', `/v1/spaces/${id}`)).status).toBe(205);
    app.clock.advance(8 * DAY_MS);
    await eventually(async () => (await app.http('GET', `/v1/spaces/${id}`)).status === 404);
    const stream = await app.built.storage.events.readStream(`space-${id}`);
    expect(stream.map((e) => e.type)).toEqual(['SpaceCreated', 'SpaceDeleted', 'SpacePurged']);
  });

  it('follows a rebuild promoted by another process, and keeps serving writes after it', async () => {
    const app = current();
    const id = await createSpace(app, 'Before the rebuild');
    expect((await app.http('GET', `/v1/spaces/${id}`)).status).toBe(200);
    // What `npm run cli -- rebuild` does, over connections of its own.
    const events = new SqliteEventStore({ path: join(app.dataDir, 'events.sqlite') });
    const views = new SqliteReadStore({ path: join(app.dataDir, 'views.sqlite') });
    try {
      await new Projector(events, views, PROJECTION_LIST).rebuild();
      const generation = await views.generation();
      expect(generation).toBeGreaterThan(1);
    } finally {
      await events.close();
      await views.close();
    }
    const patched = await app.http('PATCH', `/v1/spaces/${id}`, { body: { title: 'After the rebuild' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ title: 'After the rebuild' });
    expect((await app.http('GET', `/v1/spaces/${id}`)).body).toMatchObject({ title: 'After the rebuild' });
  });

  it('starts a thread that died again; the projector resumes and nothing acknowledged is lost', async () => {
    const app = current();
    const id = await createSpace(app, 'Survivor');
    expect((await fetch(`${app.url}/ready`)).status).toBe(200);
    // A crash of the thread, as an uncaught error in it would end it.
    await (thread(app) as unknown as { worker: Worker }).worker.terminate();
    expect(thread(app).active()).toBe(false);
    const down = await fetch(`${app.url}/ready`);
    expect(down.status).toBe(503);
    expect(((await down.json()) as { checks: Record<string, unknown> }).checks.storageThread).toEqual({
      status: 'down',
      reason: 'error',
    });
    // Made while no thread runs: held until the next one starts, then committed and projected.
    const patched = await app.http('PATCH', `/v1/spaces/${id}`, { body: { title: 'After the restart' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ title: 'After the restart' });
    expect(thread(app).active()).toBe(true);
    expect((await fetch(`${app.url}/ready`)).status).toBe(200);
    expect(liveProjector(app).checkpoint()).toBe(await app.built.storage.events.headPosition());
  });
});
