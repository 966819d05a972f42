import { IdentityService } from '@app/identity/write/identity.commands';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import {
  addOrganization,
  addUser,
  liveProjector,
  SETUP,
  type TestApp,
  useTestApp,
} from '../support/app-harness';

// Not in e2e-mongo: it counts the reads of the views (views.get replaced); the cache sits above the read
// store, whichever it is.

/**
 * Successful GETs are kept in memory per caller and URL until the views change: a kept answer must
 * never outlive the change it misses, nor reach another caller.
 */
describe.each([
  ['storage thread', true],
  // In-thread too: STORAGE_THREAD=0 is a setting of `npm start`, and the caches learn of changes another way there.
  ['projector on the serving thread', false],
])('answers of GET kept until the views change (%s)', (_mode, storageThread) => {
  const current = useTestApp({ config: { storageThread } });

  const createSpace = async (app: TestApp, title: string) => {
    const created = await app.http('POST', `/v1/orgs/${app.organizationId}/spaces`, { body: { title } });
    expect(created.status).toBe(201);
    return (created.body as { id: string }).id;
  };

  /** Counts the reads of the views made while `fn` runs. */
  const readsDuring = async (app: TestApp, fn: () => Promise<unknown>) => {
    const views = app.built.app.get<ReadStore>(READ_STORE);
    const get = views.get.bind(views);
    let reads = 0;
    views.get = (collection, id) => {
      reads += 1;
      return get(collection, id);
    };
    try {
      await fn();
    } finally {
      views.get = get;
    }
    return reads;
  };

  it('answers a repeated GET without reading the views, with the same body and ETag', async () => {
    const app = current();
    const id = await createSpace(app, 'Kept');
    const first = await app.http('GET', `/v1/spaces/${id}`);
    let second: Awaited<ReturnType<TestApp['http']>> | undefined;
    expect(await readsDuring(app, async () => (second = await app.http('GET', `/v1/spaces/${id}`)))).toBe(0);
    expect(second?.status).toBe(200);
    expect(second?.body).toEqual(first.body);
    expect(second?.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(second?.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(second?.headers.get('x-request-id')).toBeTruthy();
    expect(second?.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
  });

  it('shows a write on the next GET', async () => {
    const app = current();
    const id = await createSpace(app, 'Before');
    expect((await app.http('GET', `/v1/spaces/${id}`)).body).toMatchObject({ title: 'Before' });
    const before = (await app.http('GET', `/v1/spaces/${id}`)).headers.get('etag');
    expect((await app.http('PATCH', `/v1/spaces/${id}`, { body: { title: 'After' } })).status).toBe(200);
    const after = await app.http('GET', `/v1/spaces/${id}`);
    expect(after.body).toMatchObject({ title: 'After' });
    expect(after.headers.get('etag')).not.toBe(before);
  });

  it('never gives one caller the answer kept for another', async () => {
    const app = current();
    const id = await createSpace(app, 'Private');
    expect((await app.http('GET', `/v1/spaces/${id}`)).status).toBe(200);
    const stranger = await addUser(app, { organizationId: await addOrganization(app), role: 'admin' });
    expect((await app.http('GET', `/v1/spaces/${id}`, { token: stranger.token })).status).toBe(404);
    expect((await app.http('GET', `/v1/spaces/${id}`, { token: null })).status).toBe(401);
    expect(
      (await app.http('GET', `/v1/spaces/${id}`, { token: 'not-a-token-of-this-api-at-all' })).status,
    ).toBe(401);
  });

  it('refuses a token revoked after its answers were kept', async () => {
    const app = current();
    const id = await createSpace(app, 'Revocation');
    const reader = await addUser(app, { organizationId: app.organizationId, role: 'read' });
    const identity = app.built.app.get(IdentityService);
    const issued = await identity.issueToken(reader.userId, 'second', SETUP);
    await liveProjector(app).waitFor(issued.position);
    expect((await app.http('GET', `/v1/spaces/${id}`, { token: issued.token })).status).toBe(200);
    expect((await app.http('GET', `/v1/spaces/${id}`, { token: issued.token })).status).toBe(200);
    const revoked = await identity.revokeToken(reader.userId, issued.tokenId, SETUP);
    await liveProjector(app).waitFor(revoked.position);
    expect((await app.http('GET', `/v1/spaces/${id}`, { token: issued.token })).status).toBe(401);
    // The user's other token still reads.
    expect((await app.http('GET', `/v1/spaces/${id}`, { token: reader.token })).status).toBe(200);
  });

  it('keeps answers per URL, query string included', async () => {
    const app = current();
    await createSpace(app, 'Listed one');
    await createSpace(app, 'Listed two');
    const path = `/v1/orgs/${app.organizationId}/spaces`;
    const one = (await app.http('GET', `${path}?limit=1`)).body as { items: unknown[] };
    const all = (await app.http('GET', path)).body as { items: unknown[] };
    expect(one.items).toHaveLength(1);
    expect(all.items.length).toBeGreaterThan(1);
    expect(((await app.http('GET', `${path}?limit=1`)).body as { items: unknown[] }).items).toHaveLength(1);
  });
});
