import { Runtime } from '@app/composition/runtime';
import { DAY_MS } from '@app/platform/domain/decider';
import { Projector } from '@app/platform/projector/projector';
import type { ReadStore } from '@app/platform/readstore/read-store.port';
import { eventually, useTestApp } from '../support/app-harness';

async function dump(views: ReadStore): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const name of (await views.collections()).sort()) out[name] = await views.all(name);
  return out;
}

describe('standalone lifecycle', () => {
  const current = useTestApp();

  it('keeps every write across a restart, and bootstraps only once', async () => {
    let app = current();
    const org = app.organizationId;
    const collection = (await app.http('POST', `/v1/orgs/${org}/collections`, { body: { title: 'Kept' } }))
      .body as {
      id: string;
    };
    const space = (
      await app.http('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Durable', parent: collection.id } })
    ).body as { id: string };
    await app.http('PATCH', `/v1/spaces/${space.id}`, { body: { emoji: '🧱' } });
    const before = await dump(app.built.storage.views);
    const head = await app.built.storage.events.headPosition();

    app = await current.restart();

    expect(await app.built.storage.events.headPosition()).toBe(head);
    expect(await dump(app.built.storage.views)).toEqual(before);
    const reply = await app.http('GET', `/v1/spaces/${space.id}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ title: 'Durable', emoji: '🧱', parent: collection.id });
    expect(((await app.http('GET', '/v1/orgs')).body as { count: number }).count).toBe(1);
  });

  it('rebuilds every read model from the log exactly', async () => {
    const app = current();
    const org = app.organizationId;
    for (let i = 0; i < 5; i++) {
      const s = (await app.http('POST', `/v1/orgs/${org}/spaces`, { body: { title: `S${i}` } })).body as {
        id: string;
      };
      if (i % 2 === 0) await app.http('DELETE', `/v1/spaces/${s.id}`);
    }
    const before = await dump(app.built.storage.views);
    const progress: number[] = [];
    const applied = await app.built.app.get(Projector).rebuild((position) => progress.push(position));
    expect(applied).toBe(await app.built.storage.events.headPosition());
    expect(progress.at(-1)).toBe(applied);
    expect(await dump(app.built.storage.views)).toEqual(before);
  });

  it('replaying events already applied changes nothing', async () => {
    const app = current();
    const before = await dump(app.built.storage.views);
    const all = await app.built.storage.events.readAll(0, 100_000);
    await app.built.app.get(Projector).apply(all);
    expect(await dump(app.built.storage.views)).toEqual(before);
  });

  it('purges a space deleted 8 days ago; it can no longer be restored', async () => {
    const app = current();
    const org = app.organizationId;
    const space = (await app.http('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Doomed' } })).body as {
      id: string;
    };
    const comment = await app.http('POST', `/v1/spaces/${space.id}/comments`, {
      body: { body: { markdown: 'Gone too' } },
    });
    expect(comment.status).toBe(200);
    expect((await app.http('DELETE', `/v1/spaces/${space.id}`)).status).toBe(205);
    app.clock.advance(6 * DAY_MS);
    await new Promise((r) => setTimeout(r, 100));
    expect((await app.http('GET', `/v1/spaces/${space.id}`)).status).toBe(200);

    app.clock.advance(2 * DAY_MS);
    await eventually(async () => (await app.http('GET', `/v1/spaces/${space.id}`)).status === 404);
    const restore = await app.http('POST', `/v1/spaces/${space.id}/restore`);
    expect(restore.status).toBe(404);
    expect(restore.body).toEqual({ error: { code: 404, message: expect.any(String) } });
    const stream = await app.built.storage.events.readStream(`space-${space.id}`);
    const types = stream.map((e) => e.type);
    expect(types).toEqual(['SpaceCreated', 'SpaceDeleted', 'SpacePurged']);
    // Its comments leave the views with it.
    await eventually(
      async () =>
        (await app.built.storage.views.get('comments', (comment.body as { id: string }).id)) === null,
    );
    expect(stream[2].metadata).toMatchObject({
      actor: { source: 'system' },
      causationId: stream[1].id,
      correlationId: stream[1].metadata.correlationId,
    });
  });

  it('the periodic sweep recovers purges whose jobs were lost', async () => {
    let app = current();
    const org = app.organizationId;
    const space = (await app.http('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Forgotten' } }))
      .body as {
      id: string;
    };
    await app.http('DELETE', `/v1/spaces/${space.id}`);
    // A restart with a fresh in-process queue loses the scheduled job; the sweep finds the purge again.
    app = await current.restart();
    app.clock.advance(8 * DAY_MS);
    expect(await app.built.app.get(Runtime).sweep()).toBeGreaterThanOrEqual(1);
    await eventually(async () => (await app.http('GET', `/v1/spaces/${space.id}`)).status === 404);
  });
});
