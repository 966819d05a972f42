import { join } from 'node:path';
import { PROJECTION_LIST } from '@app/composition/catalog';
import { rebuildOnThread } from '@app/composition/rebuild-thread';
import { openReadStore } from '@app/composition/storage';
import type { EventStore } from '@app/platform/eventstore/event-store.port';
import { SqliteEventStore } from '@app/platform/eventstore/sqlite-event-store';
import type { Projection } from '@app/platform/projector/projection';
import { Projector } from '@app/platform/projector/projector';
import type { Doc, ReadStore } from '@app/platform/readstore/read-store.port';
import { SqliteReadStore } from '@app/platform/readstore/sqlite-read-store';
import { signingIdentity } from '@app/sso/domain/certificate.testing';
import {
  addUser,
  liveProjector,
  removeDir,
  type TestApp,
  type TestAppOptions,
  tempDataDir,
  useTestApp,
} from '../support/app-harness';
import { samlResponse } from '../support/saml-idp';

/**
 * Populating, and a rebuild while serving, run for as long as the machine takes to write and replay the
 * log and serve the readers meanwhile; on a loaded 2-core machine (a CI run beside others) that is well
 * past Jest's default. The tests wait on conditions, never on a time.
 */
const WHILE_SERVING_MS = 180_000;

type Resource = { id: string; [field: string]: unknown };
type List = { items: Resource[]; count: number; next?: { page: string } };

/** Sends a request that must succeed, and answers its body. */
function sender(app: TestApp) {
  return async (method: string, path: string, body: unknown = {}, token?: string) => {
    const reply = await app.http(method, path, { body, token });
    if (reply.status >= 300)
      throw new Error(`${method} ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body as Resource & { key: string };
  };
}

async function dump(views: ReadStore): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const name of (await views.collections()).sort()) out[name] = await views.all(name);
  return out;
}

/** The views a projector fresh from the log builds in an empty store, through the live path rather than `rebuild`. */
async function freshProjection(events: EventStore): Promise<Record<string, unknown[]>> {
  const dir = tempDataDir();
  const views = new SqliteReadStore({ path: join(dir, 'fresh.sqlite') });
  try {
    const projector = new Projector(events, views, PROJECTION_LIST);
    await projector.prepare();
    for (;;) {
      const batch = await events.readAll(projector.checkpoint(), 1000);
      if (batch.length === 0) break;
      await projector.apply(batch);
    }
    return await dump(views);
  } finally {
    await views.close();
    removeDir(dir);
  }
}

/** What a test expects to read back unchanged, taken before the rebuild. */
interface Snapshot {
  spaces: Resource[];
  collections: Resource[];
  spaceList: string[];
  collectionList: string[];
}

async function ok(app: TestApp, path: string): Promise<unknown> {
  const reply = await app.http('GET', path);
  if (reply.status !== 200) throw new Error(`GET ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
}

/** Spaces and collections, some nested, renamed and deleted, so that every projection has history. */
async function populate(app: TestApp): Promise<void> {
  const org = app.organizationId;
  const collections: string[] = [];
  for (let i = 0; i < 8; i++) {
    const parent = i >= 4 ? collections[i - 4] : undefined;
    const reply = await app.http('POST', `/v1/orgs/${org}/collections`, { body: { title: `C${i}`, parent } });
    expect(reply.status).toBe(201);
    collections.push((reply.body as Resource).id);
  }
  for (let i = 0; i < 60; i++) {
    const parent = i % 3 === 0 ? collections[i % collections.length] : undefined;
    const reply = await app.http('POST', `/v1/orgs/${org}/spaces`, { body: { title: `S${i}`, parent } });
    expect(reply.status).toBe(201);
    const id = (reply.body as Resource).id;
    if (i % 4 === 0) await app.http('PATCH', `/v1/spaces/${id}`, { body: { title: `S${i} renamed` } });
    if (i % 12 === 1) await populateContent(app, id);
    if (i % 10 === 5) await app.http('DELETE', `/v1/spaces/${id}`);
  }
  await populateTeams(app);
  await populateTranslations(app);
  await populateSso(app);
  await populateMembers(app);
  await populateInvites(app);
  await populateGrants(app, collections);
  await populateComments(app);
}

/** Comments resolved, reopened, reacted to, replied to and deleted: the comments' views and counters have history. */
async function populateComments(app: TestApp): Promise<void> {
  const send = sender(app);
  const space = await send('POST', `/v1/orgs/${app.organizationId}/spaces`, { title: 'Commented' });
  const comments = `/v1/spaces/${space.id}/comments`;
  for (let i = 0; i < 4; i++) {
    const comment = await send('POST', comments, { body: { markdown: `Comment ${i}` } });
    const reply = await send('POST', `${comments}/${comment.id}/replies`, {
      body: { markdown: `Reply ${i}` },
    });
    await send('PUT', `${comments}/${comment.id}`, { resolved: i % 2 === 0, addedReactions: ['👍', '🎉'] });
    await send('PUT', `${comments}/${comment.id}/replies/${reply.id}`, { addedReactions: ['👀'] });
    if (i === 0)
      await send('PUT', `${comments}/${comment.id}`, { resolved: false, removedReactions: ['🎉'] });
    if (i === 1) await send('DELETE', `${comments}/${comment.id}/replies/${reply.id}`);
    if (i === 2) await send('DELETE', `${comments}/${comment.id}`);
  }
}

/**
 * Grants to users and teams on collections and spaces, changed and revoked, default levels closed and a
 * granted space moved: the access views have history.
 */
async function populateGrants(app: TestApp, collections: string[]): Promise<void> {
  const org = app.organizationId;
  const send = sender(app);
  const user = await addUser(app, { organizationId: org, role: 'read' });
  const team = await send('PUT', `/v1/orgs/${org}/teams`, { title: 'Granted', members: [user.userId] });
  for (let i = 0; i < 3; i++) {
    const collection = collections[i];
    await send('POST', `/v1/collections/${collection}/permissions`, { role: 'edit', teams: [team.id] });
    await send('PATCH', `/v1/collections/${collection}`, { defaultLevel: i === 1 ? null : 'comment' });
    const space = await send('POST', `/v1/orgs/${org}/spaces`, { title: `Granted ${i}`, parent: collection });
    await send('POST', `/v1/spaces/${space.id}/permissions`, { role: 'review', users: [user.userId] });
    await send('PATCH', `/v1/spaces/${space.id}/permissions/users/${user.userId}`, { role: 'comment' });
    if (i === 1) await send('DELETE', `/v1/collections/${collection}/permissions/teams/${team.id}`);
    if (i === 2) await send('POST', `/v1/spaces/${space.id}/move`, { parent: null });
  }
}

/** Invite links made, updated, deleted and used, and email invites: the invites' views have history. */
async function populateInvites(app: TestApp): Promise<void> {
  const org = app.organizationId;
  const send = sender(app);
  for (let i = 0; i < 3; i++) {
    const link = await send('POST', `/v1/orgs/${org}/link-invites`, { role: 'read' });
    await send('PATCH', `/v1/orgs/${org}/link-invites/${link.id}`, { role: 'edit' });
    if (i === 0)
      await send('POST', `/v1/orgs/${org}/invites/${link.id}`, undefined, (await addUser(app)).token);
    if (i === 1) await send('DELETE', `/v1/orgs/${org}/link-invites/${link.id}`);
  }
  await send('POST', `/v1/orgs/${org}/invites`, {
    emails: ['later@example.com', 'Later2@example.com', { email: 'guest-later@example.com', role: null }],
    role: 'edit',
  });
  // Guests: a link and its use.
  const guests = await send('POST', `/v1/orgs/${org}/link-invites`, { role: null });
  await send('POST', `/v1/orgs/${org}/invites/${guests.id}`, undefined, (await addUser(app)).token);
}

/** Translation settings replaced and deleted, and the organization's settings and email domains updated. */
async function populateTranslations(app: TestApp): Promise<void> {
  const org = app.organizationId;
  const send = sender(app);
  for (let i = 0; i < 3; i++) {
    const made = await send('POST', `/v1/orgs/${org}/translations`, { title: `L${i}`, languages: ['fr'] });
    await send('PUT', `/v1/orgs/${org}/translations/${made.id}`, {
      title: `L${i} renamed`,
      languages: ['de', 'ja'],
    });
    if (i === 1) await send('DELETE', `/v1/orgs/${org}/translations/${made.id}`);
  }
  await send('PATCH', `/v1/orgs/${org}`, {
    emailDomains: ['a.test', 'b.test'],
    hostname: 'rebuilt',
    sso: true,
  });
  await send('PATCH', `/v1/orgs/${org}`, { emailDomains: ['b.test', 'c.test'], defaultRole: null });
}

/** Members seen, set as SSO members, given roles, made guests and removed: the members' views have history. */
async function populateMembers(app: TestApp): Promise<void> {
  const members = `/v1/orgs/${app.organizationId}/members`;
  for (let i = 0; i < 3; i++) {
    const user = await addUser(app, { organizationId: app.organizationId, role: 'read' });
    const ping = await app.http('POST', `/v1/orgs/${app.organizationId}/ping`, { token: user.token });
    expect(ping.status).toBe(200);
    await app.http('POST', `${members}/${user.userId}/sso`);
    expect((await app.http('PATCH', `${members}/${user.userId}`, { body: { role: 'edit' } })).status).toBe(
      200,
    );
    if (i === 1) await app.http('PATCH', `${members}/${user.userId}`, { body: { role: null } });
    if (i === 2) expect((await app.http('DELETE', `${members}/${user.userId}`)).status).toBe(204);
  }
}

/** Teams renamed, deleted, and with members added, promoted and removed: the teams' views have history. */
async function populateTeams(app: TestApp): Promise<void> {
  const teams = `/v1/orgs/${app.organizationId}/teams`;
  const send = sender(app);
  for (let i = 0; i < 3; i++) {
    const team = await send('PUT', teams, { title: `T${i}`, members: [app.userId] });
    await send('PATCH', `${teams}/${team.id}`, { title: `T${i} renamed` });
    await send('PUT', `${teams}/${team.id}/members/${app.userId}`, { role: 'owner' });
    if (i === 1) await send('PUT', `${teams}/${team.id}/members`, { remove: [app.userId] });
    if (i === 2) await send('DELETE', `${teams}/${team.id}`);
  }
}

/**
 * SAML providers made, configured, cleared and deleted, and a newcomer signing in with one: the
 * providers', users', tokens' and members' views have history.
 */
async function populateSso(app: TestApp): Promise<void> {
  const saml = `/v1/orgs/${app.organizationId}/saml`;
  const day = 24 * 60 * 60 * 1000;
  const now = app.clock.now();
  const idp = await signingIdentity(new Date(now - day), new Date(now + 3650 * day));
  const certificate = idp.certificate;
  for (let i = 0; i < 3; i++) {
    const reply = await app.http('POST', saml, { body: { label: `IdP ${i}` } });
    expect(reply.status).toBe(201);
    const id = (reply.body as Resource).id;
    const configure = { entityID: `urn:idp:${i}`, ssoURL: 'https://idp.example.com/sso', certificate };
    expect((await app.http('PATCH', `${saml}/${id}`, { body: configure })).status).toBe(200);
    if (i === 1)
      expect((await app.http('PATCH', `${saml}/${id}`, { body: { certificate: '' } })).status).toBe(200);
    if (i === 2) expect((await app.http('DELETE', `${saml}/${id}`)).status).toBe(204);
    if (i === 0) {
      const acsURL = `http://docs.test/v1/sso/saml/${id}/acs`;
      const SAMLResponse = samlResponse(idp, {
        issuer: configure.entityID,
        audience: `http://docs.test/v1/sso/saml/${id}/metadata`,
        acsURL,
        nameID: 'rebuilt.newcomer@example.com',
      });
      const signedIn = await fetch(`${app.url}/v1/sso/saml/${id}/acs`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ SAMLResponse }).toString(),
      });
      expect(signedIn.status).toBe(200);
    }
  }
}

/**
 * Change requests with content, reviews and merges, a language and a duplicate: the content, search and
 * review views have history.
 */
async function populateContent(app: TestApp, space: string): Promise<void> {
  const post = async (path: string, body?: unknown) => {
    const reply = await app.http('POST', `/v1/spaces/${space}${path}`, body === undefined ? {} : { body });
    if (reply.status >= 300) throw new Error(`POST ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body as { id: string; changes: { page: { id: string } }[] };
  };
  const first = await post('/change-requests', { subject: 'Pages' });
  const written = await post(`/change-requests/${first.id}/content?compat=false`, {
    changes: [
      {
        operation: 'insert_page',
        title: 'Guide',
        document: { markdown: 'Install the guide.\n\n## Usage\n\nUse it.\n' },
      },
      { operation: 'insert_page', title: 'Notes', document: { markdown: 'Release notes.\n' } },
    ],
  });
  await post(`/change-requests/${first.id}/reviews`, { status: 'approved' });
  await post(`/change-requests/${first.id}/merge`);
  const second = await post('/change-requests', { subject: 'Edits' });
  const [guide] = written.changes.map((c) => c.page.id);
  await post(`/change-requests/${second.id}/content`, {
    changes: [
      { operation: 'update_page', page: guide, document: { markdown: 'Install the guide again.\n' } },
    ],
  });
  await post(`/change-requests/${second.id}/merge`);
  await post('/change-requests', { subject: 'Left open' });
  // A new language indexes the pages again; a duplicate starts with the content, indexed.
  const french = await app.http('PATCH', `/v1/spaces/${space}`, { body: { language: 'fr' } });
  if (french.status !== 200) throw new Error(`PATCH language: ${french.status}`);
  await post('/duplicate');
}

async function snapshot(app: TestApp): Promise<Snapshot> {
  const org = app.organizationId;
  const spaces = await listAll(app, `/v1/orgs/${org}/spaces`);
  const collections = await listAll(app, `/v1/orgs/${org}/collections`);
  return {
    spaces,
    collections,
    spaceList: spaces.map((s) => s.id),
    collectionList: collections.map((c) => c.id),
  };
}

/** Spaces written while one rebuild runs at most: enough to interleave, few enough to keep lists short. */
const MAX_WRITES = 300;

/** Every item of a list, page after page (a list of several rebuilds' writes can outgrow one). */
async function listAll(app: TestApp, path: string): Promise<Resource[]> {
  const items: Resource[] = [];
  for (let page: string | undefined; ; ) {
    const query = page === undefined ? '' : `&page=${encodeURIComponent(page)}`;
    const body = (await ok(app, `${path}?limit=1000${query}`)) as List;
    items.push(...body.items);
    page = body.next?.page;
    if (page === undefined) return items;
  }
}

/**
 * Reads existing resources and lists while `rebuilding()` and for a few requests past it, and writes
 * new spaces, each read back at once. Returns what went wrong, the reads made while rebuilding, the
 * generations reads saw and the spaces written.
 */
async function serveWhile(
  app: TestApp,
  before: Snapshot,
  views: ReadStore,
  rebuilding: () => boolean,
  writing: () => boolean,
) {
  const org = app.organizationId;
  const failures: string[] = [];
  const generations = new Set<number>();
  const written: string[] = [];
  let reads = 0;
  let served = 0;
  /** Reader rounds begun after the rebuild ended: some must run wholly on the new generation. */
  const done = () => !rebuilding() && served >= 6;
  const check = (what: string, condition: boolean, detail: unknown) => {
    if (rebuilding()) reads += 1;
    if (!condition && failures.length < 20) failures.push(`${what}: ${JSON.stringify(detail)}`);
  };

  const reader = async () => {
    for (let i = 0; !done(); i++) {
      if (!rebuilding()) served += 1;
      generations.add(await views.generation());
      const space = before.spaces[i % before.spaces.length];
      const reply = await app.http('GET', `/v1/spaces/${space.id}`);
      check(`GET space ${space.id}`, reply.status === 200 && isEqual(reply.body, space), reply);
      const collection = before.collections[i % before.collections.length];
      const coll = await app.http('GET', `/v1/collections/${collection.id}`);
      check(`GET collection ${collection.id}`, coll.status === 200 && isEqual(coll.body, collection), coll);
      if (i % 3 === 0) {
        const ids = new Set((await listAll(app, `/v1/orgs/${org}/spaces`)).map((s) => s.id));
        const lost = before.spaceList.filter((id) => !ids.has(id));
        check('space list', lost.length === 0, { lost });
        const collections = await app.http('GET', `/v1/orgs/${org}/collections?limit=1000`);
        const collectionIds = new Set((collections.body as List).items?.map((c) => c.id));
        const lostCollections = before.collectionList.filter((id) => !collectionIds.has(id));
        check('collection list', lostCollections.length === 0, lostCollections);
      }
    }
  };

  const writer = async () => {
    for (let i = 0; !done(); i++) {
      if (!writing() || written.length >= MAX_WRITES) {
        await new Promise((r) => setTimeout(r, 2));
        continue;
      }
      const reply = await app.http('POST', `/v1/orgs/${org}/spaces`, { body: { title: `During ${i}` } });
      check('POST space', reply.status === 201, reply);
      const id = (reply.body as Resource).id;
      written.push(id);
      const read = await app.http('GET', `/v1/spaces/${id}`);
      check(
        `GET new space ${id}`,
        read.status === 200 && (read.body as Resource).title === `During ${i}`,
        read,
      );
    }
  };

  await Promise.all([reader(), reader(), writer()]);
  return { failures, reads, generations, written };
}

function isEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Runs `rebuild` while serving; returns after the rebuild and a few requests past it.
 * Writes start once `writing()` holds: a write makes the live projector check the views, which would
 * heal a generation promoted too early before any read could notice.
 */
async function rebuildWhileServing(
  app: TestApp,
  before: Snapshot,
  rebuild: () => Promise<number>,
  writing: () => boolean = () => true,
) {
  let finished = false;
  const serving = serveWhile(app, before, app.built.storage.views, () => !finished, writing);
  const applied = await rebuild().finally(() => {
    finished = true;
  });
  const served = await serving;
  return { applied, ...served };
}

async function expectSettled(app: TestApp, before: Snapshot, written: string[]): Promise<void> {
  const events = app.built.storage.events;
  await liveProjector(app).waitFor(await events.headPosition());
  for (const id of written) await ok(app, `/v1/spaces/${id}`);
  const after = await snapshot(app);
  expect(after.spaceList).toEqual(expect.arrayContaining([...before.spaceList, ...written]));
  expect(await dump(app.built.storage.views)).toEqual(await freshProjection(events));
}

/** Serves a populated app with the storage thread (`config` says otherwise), with a snapshot taken before any test. */
function useServingApp(config: TestAppOptions['config'] = {}) {
  const current = useTestApp({ config });
  let before: Snapshot;
  beforeAll(async () => {
    const app = current();
    await populate(app);
    before = await snapshot(app);
  }, WHILE_SERVING_MS);
  return { current, initial: () => before };
}

describe('rebuild while serving', () => {
  const { current, initial } = useServingApp();

  it(
    'from another process (the CLI): the server follows the switch and keeps projecting',
    async () => {
      const app = current();
      // What `npm run cli -- rebuild` opens: its own connections to the same files.
      const events = new SqliteEventStore({ path: join(app.dataDir, 'events.sqlite') });
      const views = await openReadStore(app.storage);
      try {
        const generation = await views.generation();
        const cli = new Projector(events, views, PROJECTION_LIST);
        const run = await rebuildWhileServing(app, await snapshot(app), () =>
          cli.rebuild(undefined, { batchSize: 5 }),
        );
        expect(run.failures).toEqual([]);
        expect(run.written.length).toBeGreaterThan(0);
        expect(await views.generation()).toBeGreaterThan(generation);
        expect(await app.built.storage.views.generation()).toBe(await views.generation());

        // The server's projector continues on the new generation after the switch.
        const reply = await app.http('POST', `/v1/orgs/${app.organizationId}/spaces`, {
          body: { title: 'After' },
        });
        expect(reply.status).toBe(201);
        await ok(app, `/v1/spaces/${(reply.body as Resource).id}`);
        await expectSettled(app, initial(), [...run.written, (reply.body as Resource).id]);
      } finally {
        await events.close();
        await views.close();
      }
    },
    WHILE_SERVING_MS,
  );

  it(
    'on a thread of its own (what the CLI runs): the server follows the switch and keeps projecting',
    async () => {
      const app = current();
      const generation = await app.built.storage.views.generation();
      const progress: number[] = [];
      const run = await rebuildWhileServing(app, await snapshot(app), () =>
        rebuildOnThread(app.storage, {}, (position) => progress.push(position)),
      );
      expect(run.failures).toEqual([]);
      expect(run.applied).toBeGreaterThan(0);
      expect(progress.at(-1)).toBeGreaterThanOrEqual(run.applied);
      expect(await app.built.storage.views.generation()).toBeGreaterThan(generation);
      await expectSettled(app, initial(), run.written);
    },
    WHILE_SERVING_MS,
  );

  it(
    'on a thread: an unknown projection fails the rebuild and changes nothing',
    async () => {
      const app = current();
      const generation = await app.built.storage.views.generation();
      await expect(rebuildOnThread(app.storage, { projection: 'nope' })).rejects.toThrow(
        /unknown projection nope/,
      );
      expect(await app.built.storage.views.generation()).toBe(generation);
    },
    WHILE_SERVING_MS,
  );
});

describe('rebuild by the live projector of the serving thread', () => {
  // In-thread: these rebuild with the app's live projector, which runs in process only without the storage thread.
  const { current, initial } = useServingApp({ storageThread: false });

  it(
    'in the server process: reads stay complete, writes land, and the result equals a fresh projection',
    async () => {
      const app = current();
      const views = app.built.storage.views;
      const generation = await views.generation();
      const projector = app.built.app.get(Projector);
      const progress: number[] = [];

      const run = await rebuildWhileServing(
        app,
        initial(),
        () => projector.rebuild((position) => progress.push(position), { batchSize: 2 }),
        () => progress.length >= 25,
      );

      expect(run.failures).toEqual([]);
      expect(run.reads).toBeGreaterThan(10);
      expect(run.written.length).toBeGreaterThan(0);
      expect(await views.generation()).toBeGreaterThan(generation);
      expect([...run.generations]).toEqual([generation, await views.generation()]);
      expect(progress.at(-1)).toBeGreaterThanOrEqual(initial().spaceList.length);
      expect(run.applied).toBeGreaterThan(0);
      await expectSettled(app, initial(), run.written);
    },
    WHILE_SERVING_MS,
  );

  it(
    'one projection: its views are replayed, the others copied, and the result equals a fresh projection',
    async () => {
      const app = current();
      const projector = app.built.app.get(Projector);
      expect(projector.rebuildScope('spaces').map((p) => p.name)).toEqual(['spaces']);
      expect(projector.rebuildScope('identity').map((p) => p.name)).toEqual(['identity']);
      const latest = await snapshot(app);

      const run = await rebuildWhileServing(app, latest, () =>
        projector.rebuild(undefined, { projection: 'spaces', batchSize: 5 }),
      );

      expect(run.failures).toEqual([]);
      await expectSettled(app, latest, run.written);
    },
    WHILE_SERVING_MS,
  );

  it(
    'rejects an unknown projection before touching anything',
    async () => {
      const app = current();
      const generation = await app.built.storage.views.generation();
      await expect(app.built.app.get(Projector).rebuild(undefined, { projection: 'nope' })).rejects.toThrow(
        /unknown projection nope/,
      );
      expect(await app.built.storage.views.generation()).toBe(generation);
    },
    WHILE_SERVING_MS,
  );
});

/** A projection whose fix changes what it writes: titles it puts end in " (fixed)". */
function fixedVersion(projection: Projection): Projection {
  const fix = (doc: Doc): Doc =>
    typeof doc.title === 'string' ? { ...doc, title: `${doc.title} (fixed)` } : doc;
  return {
    ...projection,
    apply: (event, ctx) =>
      projection.apply(event, { ...ctx, put: (collection, doc) => ctx.put(collection, fix(doc)) }),
  };
}

describe('a rebuild promoted by another process while no event arrives', () => {
  const current = useTestApp();

  it(
    "the server's cached documents and answers follow the switch",
    async () => {
      const app = current();
      const events = new SqliteEventStore({ path: join(app.dataDir, 'events.sqlite') });
      const views = await openReadStore(app.storage);
      try {
        const created = await app.http('POST', `/v1/orgs/${app.organizationId}/spaces`, {
          body: { title: 'S' },
        });
        const path = `/v1/spaces/${(created.body as Resource).id}`;
        // Read twice: the second answer comes from the server's caches.
        expect(((await ok(app, path)) as Resource).title).toBe('S');
        expect(((await ok(app, path)) as Resource).title).toBe('S');
        const changes: string[] = [];
        liveProjector(app).onChange((changed) => changes.push(String(changed)));

        const cli = new Projector(events, views, PROJECTION_LIST.map(fixedVersion));
        await cli.rebuild();

        // The server notices the switch on its next poll: seconds at most, more on a loaded machine.
        const deadline = Date.now() + 60_000;
        while (((await ok(app, path)) as Resource).title !== 'S (fixed)') {
          if (Date.now() > deadline) throw new Error('the server still answers from the retired generation');
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect(changes).toContain('all');
      } finally {
        await events.close();
        await views.close();
      }
    },
    WHILE_SERVING_MS,
  );
});
