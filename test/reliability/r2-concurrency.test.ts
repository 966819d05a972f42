import { type TestApp, useTestApp } from '../support/app-harness';

describe.each([
  ['storage thread', true],
  // In-thread too: STORAGE_THREAD=0 is a setting of `npm start`, and commits there take another path.
  ['projector on the serving thread', false],
])('R2 concurrency: concurrent updates and optimistic concurrency over HTTP (%s)', (_mode, storageThread) => {
  const current = useTestApp({ config: { storageThread } });

  it('50 concurrent updates of one space: no 5xx, no lost update', async () => {
    const app = current();
    const org = app.organizationId;
    const space = (await app.http('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Contended' } }))
      .body as {
      id: string;
    };
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        app.http('PATCH', `/v1/spaces/${space.id}`, { body: { title: `t${i}` } }),
      ),
    );
    // One process runs the commands of a stream one after the other: none conflicts, every one lands
    // (conflicts between processes are test/cluster/write-conflicts.test.ts's).
    expect(replies.map((r) => r.status)).toEqual(Array(50).fill(200));
    const ok = replies.map((_, i) => `t${i}`);
    const stream = await app.built.storage.events.readStream(`space-${space.id}`);
    const logged = stream
      .filter((e) => e.type === 'SpaceUpdated')
      .map((e) => (e.data as { changes: { title: string } }).changes.title);
    expect([...logged].sort()).toEqual([...ok].sort());
    // The view shows the last update in the log.
    const final = await app.http('GET', `/v1/spaces/${space.id}`);
    expect((final.body as { title: string }).title).toBe(logged.at(-1) ?? 'Contended');
  });

  it.each([
    ['space', 'spaces', (o: string) => `/v1/orgs/${o}/spaces`, { title: 'Etagged' }],
    ['collection', 'collections', (o: string) => `/v1/orgs/${o}/collections`, { title: 'Etagged' }],
  ])(
    '%s: GET returns the stream revision as ETag; a stale If-Match gets 412 and changes nothing',
    async (_n, path, create, body) => {
      const app = current();
      const org = app.organizationId;
      const created = await app.http('POST', create(org), { body });
      expect(created.headers.get('etag')).toBe('"0"');
      const id = (created.body as { id: string }).id;
      const first = await app.http('PATCH', `/v1/${path}/${id}`, { body: { title: 'One' } });
      expect(first.headers.get('etag')).toBe('"1"');
      const got = await app.http('GET', `/v1/${path}/${id}`);
      expect(got.headers.get('etag')).toBe('"1"');

      const head = await app.built.storage.events.headPosition();
      const stale = await fetchWith(app, 'PATCH', `/v1/${path}/${id}`, { title: 'Stale' }, '"0"');
      expect(stale.status).toBe(412);
      expect(await stale.json()).toEqual({ error: { code: 412, message: expect.any(String) } });
      expect(await app.built.storage.events.headPosition()).toBe(head);
      expect(((await app.http('GET', `/v1/${path}/${id}`)).body as { title: string }).title).toBe('One');

      const fresh = await fetchWith(app, 'PATCH', `/v1/${path}/${id}`, { title: 'Two' }, 'W/"1"');
      expect(fresh.status).toBe(200);
      expect(fresh.headers.get('etag')).toBe('"2"');
      const garbage = await fetchWith(app, 'PATCH', `/v1/${path}/${id}`, { title: 'Three' }, 'yesterday');
      expect(garbage.status).toBe(400);
    },
  );
});

function fetchWith(app: TestApp, method: string, path: string, body: unknown, ifMatch: string) {
  return fetch(`${app.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${app.token}`,
      'content-type': 'application/json',
      'if-match': ifMatch,
    },
    body: JSON.stringify(body),
  });
}
