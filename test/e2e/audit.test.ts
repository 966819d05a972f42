import { randomUUID } from 'node:crypto';
import type { AuditEntry } from '@app/audit/domain/audit-entry';
import { AuditCatalog } from '@app/audit/domain/audited-events';
import { AuditStream } from '@app/audit/read/audit-stream';
import { FEATURES } from '@app/composition/features';
import { OrganizationService } from '@app/organizations/write/organization.commands';
import { DAY_MS } from '@app/platform/domain/decider';
import type { RecordedEvent } from '@app/platform/eventstore/event-store.port';
import { Projector } from '@app/platform/projector/projector';
import type { ReadStore } from '@app/platform/readstore/read-store.port';
import type { AuditEvent, AuditEventDetails } from '@gitbook/api';
import { auditTail } from '../../apps/cli/src/audit-tail';
import { addOrganization, addUser, liveProjector, useTestApp } from '../support/app-harness';

type Json = Record<string, unknown>;
type AuditList = { items: AuditEvent[]; count?: number; next?: { page: string } };

const AUDIT_VIEWS = ['audit_entries', 'audit_resources'];

async function dumpAudit(views: ReadStore): Promise<Record<string, unknown[]>> {
  return Object.fromEntries(await Promise.all(AUDIT_VIEWS.map(async (c) => [c, await views.all(c)])));
}

async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('organization audit log', () => {
  const current = useTestApp();

  const query = (params: Record<string, string | number | undefined>) => {
    const defined = Object.entries(params).filter(([, v]) => v !== undefined) as [string, string][];
    return defined.length
      ? `?${new URLSearchParams(defined.map(([k, v]): [string, string] => [k, String(v)]))}`
      : '';
  };

  /** One page of `org`'s log, validated against GitBook's list response. */
  const list = async (
    org: string,
    params: Record<string, string | number | undefined> = {},
    token?: string,
  ): Promise<AuditList> => {
    const reply = await current().http('GET', `/v1/orgs/${org}/audit-events${query(params)}`, { token });
    expect(reply.status).toBe(200);
    return reply.body as AuditList;
  };

  /** Every event of `org`'s log matching `params`, following page tokens. */
  const listAll = async (org: string, params: Record<string, string | number | undefined> = {}) => {
    const items: AuditEvent[] = [];
    for (let page: string | undefined; ; ) {
      const body = await list(org, { ...params, page });
      items.push(...body.items);
      if (!body.next) return items;
      page = body.next.page;
    }
  };

  const details = async (org: string, auditEventId: string): Promise<AuditEventDetails> => {
    const reply = await current().http('GET', `/v1/orgs/${org}/audit-events/${auditEventId}`);
    expect(reply.status).toBe(200);
    return reply.body as AuditEventDetails;
  };

  /** Runs `command` and returns the details of the one event it added to each of `orgs`' logs. */
  const recorded = async (orgs: string[], command: () => Promise<unknown>) => {
    const before = await Promise.all(orgs.map(async (org) => new Set((await listAll(org)).map((e) => e.id))));
    await command();
    return Promise.all(
      orgs.map(async (org, i) => {
        const fresh = (await listAll(org)).filter((e) => !before[i].has(e.id));
        expect(fresh).toHaveLength(1);
        return details(org, fresh[0].id);
      }),
    );
  };
  const recordedIn = async (org: string, command: () => Promise<unknown>) =>
    (await recorded([org], command))[0];

  const send = async (method: string, path: string, body?: unknown, expected = [200, 201, 205]) => {
    const reply = await current().http(method, path, { body });
    expect(expected).toContain(reply.status);
    return reply.body as { id: string };
  };

  /** The domain event behind an audit event, straight from the log. */
  const eventOf = async (stream: string, id: string): Promise<RecordedEvent> => {
    const event = (await current().built.storage.events.readStream(stream)).find((e) => e.id === id);
    if (!event) throw new Error(`no event ${id} in ${stream}`);
    return event;
  };

  const byAdmin = () => ({ type: 'user', id: current().userId, label: 'Administrator' });

  it('records each collection command once, in the organization the collection belongs to', async () => {
    const app = current();
    const org = await addOrganization(app, 'Collections audit');
    const other = await addOrganization(app, 'Collections destination');
    let id = '';
    const created = await recordedIn(org, async () => {
      ({ id } = await send('POST', `/v1/orgs/${org}/collections`, { title: 'Guides' }));
    });
    expect(created).toMatchObject({
      object: 'audit-event',
      action: 'collection.created',
      actor: byAdmin(),
      source: 'api',
      target: { type: 'collection', id, label: 'Guides' },
      urls: { location: `http://docs.test/v1/orgs/${org}/audit-events/${created.id}` },
      schemaVersion: 1,
    });
    const event = await eventOf(`collection-${id}`, created.id);
    expect(created.occurredAt).toBe(event.metadata.occurredAt);
    expect(created.correlationId).toBe(event.metadata.correlationId);
    expect(created.payload).toEqual(event.data);
    expect(created.causedByEventId).toBeUndefined();

    const updated = await recordedIn(org, () =>
      send('PATCH', `/v1/collections/${id}`, { title: 'Handbook' }),
    );
    expect(updated).toMatchObject({
      action: 'collection.updated',
      source: 'api',
      target: { type: 'collection', id, label: 'Handbook' },
      payload: { collectionId: id, changes: { title: 'Handbook' } },
    });

    const parent = await send('POST', `/v1/orgs/${org}/collections`, { title: 'Parent' });
    const moved = await recordedIn(org, () =>
      send('POST', `/v1/collections/${id}/move`, { parent: parent.id }),
    );
    expect(moved).toMatchObject({
      action: 'collection.moved',
      actor: byAdmin(),
      target: { type: 'collection', id, label: 'Handbook' },
      payload: { collectionId: id, parent: parent.id },
    });

    const [left, arrived] = await recorded([org, other], () =>
      send('POST', `/v1/collections/${id}/transfer`, { organization: other }),
    );
    expect(left).toMatchObject({
      action: 'collection.transferred',
      target: { type: 'collection', id },
      payload: { fromOrganization: org, organization: other },
    });
    expect({ ...arrived, urls: left.urls }).toEqual(left);
    expect(arrived.urls.location).toBe(`http://docs.test/v1/orgs/${other}/audit-events/${left.id}`);

    const deleted = await recordedIn(other, () => send('DELETE', `/v1/collections/${id}`));
    expect(deleted).toMatchObject({ action: 'collection.deleted', target: { type: 'collection', id } });
    expect((await listAll(org, { target: id })).map((e) => e.action)).toEqual([
      'collection.transferred',
      'collection.moved',
      'collection.updated',
      'collection.created',
    ]);
  });

  it('records each space command once with action, actor, source and target', async () => {
    const app = current();
    const org = await addOrganization(app, 'Spaces audit');
    const other = await addOrganization(app, 'Spaces destination');
    let id = '';
    const created = await recordedIn(org, async () => {
      ({ id } = await send('POST', `/v1/orgs/${org}/spaces`, { title: 'API docs' }));
    });
    expect(created).toMatchObject({
      action: 'space.created',
      actor: byAdmin(),
      source: 'api',
      target: { type: 'space', id, label: 'API docs' },
    });
    expect(created.payload).toEqual((await eventOf(`space-${id}`, created.id)).data);

    const steps: [string, () => Promise<unknown>, Json][] = [
      [
        'space.updated',
        () => send('PATCH', `/v1/spaces/${id}`, { title: 'Reference' }),
        { label: 'Reference' },
      ],
      ['space.deleted', () => send('DELETE', `/v1/spaces/${id}`), { label: 'Reference' }],
      ['space.restored', () => send('POST', `/v1/spaces/${id}/restore`), {}],
    ];
    for (const [action, command, target] of steps) {
      const event = await recordedIn(org, command);
      expect(event).toMatchObject({
        action,
        actor: byAdmin(),
        source: 'api',
        target: { type: 'space', id, ...target },
      });
    }

    let copy = '';
    const duplicated = await recordedIn(org, async () => {
      ({ id: copy } = await send('POST', `/v1/spaces/${id}/duplicate`));
    });
    expect(duplicated).toMatchObject({
      action: 'space.created',
      target: { type: 'space', id: copy, label: 'Reference' },
      payload: { id: copy, duplicatedFrom: id },
    });

    const box = await send('POST', `/v1/orgs/${org}/collections`, { title: 'Box' });
    const moved = await recordedIn(org, () => send('POST', `/v1/spaces/${id}/move`, { parent: box.id }));
    expect(moved).toMatchObject({ action: 'space.moved', target: { id }, payload: { parent: box.id } });

    const [left, arrived] = await recorded([org, other], () =>
      send('POST', `/v1/spaces/${id}/transfer`, { organization: other }),
    );
    expect(left).toMatchObject({
      action: 'space.transferred',
      actor: byAdmin(),
      source: 'api',
      target: { type: 'space', id, label: 'Reference' },
      payload: { spaceId: id, fromOrganization: org, organization: other },
    });
    expect(arrived.id).toBe(left.id);

    // From now on the space's events belong to the destination only.
    await recordedIn(other, () => send('PATCH', `/v1/spaces/${id}`, { title: 'Moved on' }));
    expect((await listAll(org, { target: id }))[0].action).toBe('space.transferred');
  });

  it('follows the contents of a transferred collection to the new organization', async () => {
    const app = current();
    const org = await addOrganization(app, 'Contents source');
    const other = await addOrganization(app, 'Contents destination');
    const root = await send('POST', `/v1/orgs/${org}/collections`, { title: 'Root' });
    const sub = await send('POST', `/v1/orgs/${org}/collections`, { title: 'Sub', parent: root.id });
    const space = await send('POST', `/v1/orgs/${org}/spaces`, { title: 'Deep', parent: sub.id });
    await send('POST', `/v1/collections/${root.id}/transfer`, { organization: other });
    const updated = await recordedIn(other, () => send('PATCH', `/v1/spaces/${space.id}`, { emoji: '🧭' }));
    expect(updated).toMatchObject({ action: 'space.updated', target: { id: space.id, label: 'Deep' } });
    await recordedIn(other, () => send('PATCH', `/v1/collections/${sub.id}`, { description: 'moved' }));
    expect((await listAll(org, { target: space.id })).map((e) => e.action)).toEqual(['space.created']);
  });

  it('ties a purge to the deletion that scheduled it', async () => {
    const app = current();
    const org = await addOrganization(app, 'Purge audit');
    const space = await send('POST', `/v1/orgs/${org}/spaces`, { title: 'Doomed' });
    const deletion = await recordedIn(org, () => send('DELETE', `/v1/spaces/${space.id}`));
    app.clock.advance(8 * DAY_MS);
    const purge = await eventually(async () => {
      const items = await listAll(org, { target: space.id, action: 'space.purged' });
      return items[0];
    });
    expect((await listAll(org, { target: space.id })).map((e) => e.action)).toEqual([
      'space.purged',
      'space.deleted',
      'space.created',
    ]);
    const purged = await details(org, purge.id);
    expect(purged).toMatchObject({
      action: 'space.purged',
      actor: { type: 'system', id: 'system' },
      source: 'workflow',
      // The space's document is gone; the audit log still knows its organization and title.
      target: { type: 'space', id: space.id, label: 'Doomed' },
      correlationId: deletion.correlationId,
      causedByEventId: deletion.id,
    });
    expect((await app.http('GET', `/v1/spaces/${space.id}`)).status).toBe(404);
  });

  it('records membership changes with the member as the target and script actions as such', async () => {
    const app = current();
    const org = await addOrganization(app, 'Members audit');
    const [created, admin] = (await listAll(org)).reverse();
    expect(created).toMatchObject({
      action: 'organization.created',
      actor: { type: 'system', id: 'system' },
      source: 'script',
      target: { type: 'organization', id: org, label: 'Members audit' },
    });
    expect(admin).toMatchObject({ action: 'member.added', target: { type: 'member', id: app.userId } });
    let userId = '';
    const added = await recordedIn(org, async () => {
      ({ userId } = await addUser(app, { organizationId: org, role: 'edit' }));
    });
    expect(added).toMatchObject({
      action: 'member.added',
      actor: { type: 'system', id: 'system' },
      source: 'script',
      target: { type: 'member', id: userId, label: 'Test User' },
      payload: { organizationId: org, userId, role: 'edit' },
    });
    const changed = await recordedIn(org, async () => {
      const ctx = {
        userId: app.userId,
        source: 'script' as const,
        correlationId: randomUUID(),
        causationId: null,
      };
      const { position } = await app.built.app
        .get(OrganizationService)
        .changeRole(org, userId, 'review', ctx);
      await liveProjector(app).waitFor(position);
    });
    expect(changed).toMatchObject({
      action: 'member.role_changed',
      actor: byAdmin(),
      source: 'script',
      target: { type: 'member', id: userId, label: 'Test User' },
      payload: { role: 'review' },
    });
  });

  it('is for organization admins only, and shows an organization nothing of another', async () => {
    const app = current();
    const a = await addOrganization(app, 'Org A');
    const b = await addOrganization(app, 'Org B');
    const space = await send('POST', `/v1/orgs/${a}/spaces`, { title: 'Private to A' });
    const aEvents = await listAll(a);
    const paths = (org: string) => [
      `/v1/orgs/${org}/audit-events`,
      `/v1/orgs/${org}/audit-events/${aEvents[0].id}`,
      `/v1/orgs/${org}/audit-event-actions`,
    ];

    const creator = await addUser(app, { organizationId: a, role: 'create' });
    for (const path of paths(a)) {
      const reply = await app.http('GET', path, { token: creator.token });
      expect(reply.status).toBe(403);
      expect(reply.body).toEqual({ error: { code: 403, message: expect.any(String) } });
    }

    const adminOfB = await addUser(app, { organizationId: b, role: 'admin' });
    for (const path of paths(a)) {
      const reply = await app.http('GET', path, { token: adminOfB.token });
      expect(reply.status).toBe(404);
    }
    const seenByB = (await list(b, { limit: 100 }, adminOfB.token)).items;
    expect(seenByB.map((e) => e.action).sort()).toEqual([
      'member.added',
      'member.added',
      'organization.created',
    ]);
    expect(seenByB.filter((e) => aEvents.some((x) => x.id === e.id))).toEqual([]);
    expect((await list(b, { target: space.id }, adminOfB.token)).items).toEqual([]);
    // Even an admin of both organizations cannot read A's event through B.
    const crossed = await app.http('GET', `/v1/orgs/${b}/audit-events/${aEvents[0].id}`);
    expect(crossed.status).toBe(404);
    expect((await app.http('GET', '/v1/orgs/nope/audit-events')).status).toBe(404);
  });

  it('filters by action, actor, target and time, and pages newest first', async () => {
    const app = current();
    const org = await addOrganization(app, 'Filters');
    const spaces: string[] = [];
    for (let i = 0; i < 5; i++) {
      app.clock.advance(60_000);
      spaces.push((await send('POST', `/v1/orgs/${org}/spaces`, { title: `S${i}` })).id);
    }
    const everything = await list(org, { limit: 100 });
    expect(everything.count).toBe(7);
    expect(everything.next).toBeUndefined();
    const times = everything.items.map((e) => e.occurredAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(everything.items.slice(0, 5).map((e) => e.target.id)).toEqual([...spaces].reverse());

    const first = await list(org);
    expect(first.items).toHaveLength(7);
    const paged = await listAll(org, { limit: 2 });
    expect(paged).toEqual(everything.items);
    const page1 = await list(org, { limit: 2 });
    expect(page1).toMatchObject({ count: 7, next: { page: expect.any(String) } });

    expect((await listAll(org, { action: 'space.created' })).map((e) => e.target.id)).toEqual(
      [...spaces].reverse(),
    );
    expect(await listAll(org, { action: 'space.deleted' })).toEqual([]);
    expect((await listAll(org, { actor: app.userId })).length).toBe(5);
    expect((await listAll(org, { actor: 'system' })).map((e) => e.action).sort()).toEqual([
      'member.added',
      'organization.created',
    ]);
    expect((await listAll(org, { target: spaces[2] })).map((e) => e.target.id)).toEqual([spaces[2]]);
    expect(
      await listAll(org, { target: spaces[2], action: 'space.created', actor: app.userId }),
    ).toHaveLength(1);

    // Spaces 1 to 3, newest first: `from` and `to` are inclusive.
    const from = everything.items[3].occurredAt;
    const to = everything.items[1].occurredAt;
    const window = await list(org, { from, to, limit: 100 });
    expect(window.items.map((e) => e.target.id)).toEqual([spaces[3], spaces[2], spaces[1]]);
    expect(window.count).toBeUndefined();
    expect(await listAll(org, { from, to, limit: 1 })).toEqual(window.items);
    const offset = (iso: string) =>
      new Date(Date.parse(iso) + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    expect((await list(org, { from: offset(from), to: offset(to) })).items).toEqual(window.items);
    expect((await listAll(org, { from: everything.items[0].occurredAt })).map((e) => e.target.id)).toEqual([
      spaces[4],
    ]);
    expect((await listAll(org, { to: everything.items[5].occurredAt })).length).toBe(2);
    expect(await listAll(org, { from: to, to: from })).toEqual([]);
    expect((await listAll(org, { from, action: 'space.created', limit: 1 })).length).toBe(4);
  });

  it('rejects malformed queries with 400 and unknown events with 404', async () => {
    const app = current();
    const org = app.organizationId;
    for (const params of [
      { limit: 101 },
      { limit: 0 },
      { limit: 'ten' },
      { from: 'yesterday' },
      { to: '2026-01-01' },
      { page: 'not-a-token' },
      { page: Buffer.from(JSON.stringify([3, 'x'])).toString('base64url') },
      { unknown: 'x' },
    ]) {
      const reply = await app.http('GET', `/v1/orgs/${org}/audit-events${query(params)}`);
      expect([params, reply.status]).toEqual([params, 400]);
    }
    expect((await list(org, { limit: 100 })).items.length).toBeLessThanOrEqual(100);
    expect((await app.http('GET', `/v1/orgs/${org}/audit-events/not-a-uuid`)).status).toBe(400);
    const missing = await app.http('GET', `/v1/orgs/${org}/audit-events/${randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: { code: 404, message: 'Audit event not found' } });
  });

  it('lists the actions it records, as GitBook audit event actions', async () => {
    const app = current();
    const reply = await app.http('GET', `/v1/orgs/${app.organizationId}/audit-event-actions`);
    expect(reply.status).toBe(200);
    const { items } = reply.body as { items: { object: string; id: string; label: string }[] };
    expect(items).toContainEqual({
      object: 'audit-event-action',
      id: 'space.deleted',
      label: 'Space deleted',
    });
    expect(items).toContainEqual({
      object: 'audit-event-action',
      id: 'member.role_changed',
      label: 'Member role changed',
    });
    expect(items).toContainEqual({
      object: 'audit-event-action',
      id: 'change_request.review_submitted',
      label: 'Change request review submitted',
    });
    expect(items.map((a) => a.id)).not.toContain('api_token.issued');
    expect(items.map((a) => a.id)).toEqual([...items.map((a) => a.id)].sort());
    const seen = (await app.built.storage.views.all<AuditEntry>('audit_entries')).map((e) => e.action);
    for (const action of new Set(seen)) expect(items.map((a) => a.id)).toContain(action);
    const client = await app.api().orgs.listOrganizationAuditEventActions(app.organizationId);
    expect(client.data).toEqual(reply.body);
  });

  it('keeps secrets out: token events yield nothing and no token hash is stored', async () => {
    const app = current();
    await addUser(app);
    const hashes = (await app.built.storage.views.all('tokens')).map((t) => t.id);
    expect(hashes.length).toBeGreaterThan(1);
    const stored = JSON.stringify(await app.built.storage.views.all('audit_entries'));
    for (const hash of hashes) expect(stored).not.toContain(hash);
    const stream = new AuditStream(new AuditCatalog(FEATURES));
    const log = await app.built.storage.events.readAll(0, 100_000);
    const tokenEvents = log.filter((e) => e.type.startsWith('ApiToken'));
    expect(tokenEvents.length).toBeGreaterThan(0);
    for (const event of log) {
      const entries = await stream.push(event);
      if (tokenEvents.includes(event) || event.type === 'UserCreated') expect(entries).toEqual([]);
    }
  });

  it('the GitBook client reads the log', async () => {
    const app = current();
    const org = app.organizationId;
    await send('POST', `/v1/orgs/${org}/spaces`, { title: 'Client' });
    const { data } = await app.api().orgs.listOrganizationAuditEvents(org, { limit: 3 });
    expect(data.items).toHaveLength(3);
    const one = await app.api().orgs.getOrganizationAuditEvent(org, data.items[0].id);
    expect(one.data).toMatchObject(data.items[0]);
  });

  it('tails new audit events of one organization through the same mapping', async () => {
    const app = current();
    const org = await addOrganization(app, 'Tail');
    const noise = await addOrganization(app, 'Tail noise');
    const lines: Json[] = [];
    const stop = new AbortController();
    const from = (await app.built.storage.events.headPosition()) + 1;
    const tail = auditTail(
      app.built.storage,
      { org, 'from-position': String(from), 'public-url': 'http://docs.test' },
      (line) => lines.push(JSON.parse(line)),
      stop.signal,
    );
    const space = await send('POST', `/v1/orgs/${org}/spaces`, { title: 'Tailed' });
    await send('POST', `/v1/orgs/${noise}/spaces`, { title: 'Not tailed' });
    await send('PATCH', `/v1/spaces/${space.id}`, { title: 'Still tailed' });
    await eventually(async () => (lines.length >= 2 ? true : undefined));
    stop.abort();
    await tail;
    expect(lines.map((l) => l.action)).toEqual(['space.created', 'space.updated']);
    for (const line of lines) {
      const { position, ...shown } = line;
      expect(position).toBeGreaterThanOrEqual(from);
      expect(shown).toEqual(await details(org, String(line.id)));
    }
  });

  it('rebuilds exactly the same audit log from the event log', async () => {
    const app = current();
    const before = await dumpAudit(app.built.storage.views);
    expect(before.audit_entries.length).toBeGreaterThan(20);
    const listed = await listAll(app.organizationId, { limit: 7 });
    await app.built.app.get(Projector).rebuild();
    expect(await dumpAudit(app.built.storage.views)).toEqual(before);
    expect(await listAll(app.organizationId, { limit: 7 })).toEqual(listed);
  });
});
