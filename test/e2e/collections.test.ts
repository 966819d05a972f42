import { type Collection, MemberRole } from '@gitbook/api';
import { addOrganization, addUser, useTestApp } from '../support/app-harness';

describe('collections over HTTP', () => {
  const current = useTestApp();

  const create = async (body: { title?: string; parent?: string }) => {
    const app = current();
    const reply = await app.api().orgs.createCollection(app.organizationId, body);
    expect(reply.status).toBe(201);
    return reply.data as Collection;
  };

  it('creates and gets a collection', async () => {
    const app = current();
    const org = app.organizationId;
    const created = await create({ title: 'Guides' });
    expect(created).toMatchObject({
      object: 'collection',
      title: 'Guides',
      organization: org,
      defaultLevel: 'inherit',
    });
    const { data } = await app.api().collections.getCollectionById(created.id);
    expect(data).toEqual(created);
  });

  it('updates title, description and default level; the response and a later GET agree', async () => {
    const app = current();
    const created = await create({ title: 'Old' });
    const { data } = await app.api().collections.updateCollectionById(created.id, {
      title: 'New',
      description: 'About',
      defaultLevel: MemberRole.Read,
    });
    expect(data).toMatchObject({ title: 'New', description: 'About', defaultLevel: 'read' });
    expect((await app.api().collections.getCollectionById(created.id)).data).toEqual(data);
  });

  it('lists collections of an organization, nested or top level only', async () => {
    const app = current();
    const org = app.organizationId;
    const top = await create({ title: 'Top' });
    const child = await create({ title: 'Child', parent: top.id });
    expect(child.parent).toBe(top.id);
    const nested = await app.api().orgs.listCollectionsInOrganizationById(org, { limit: 1000 });
    const ids = nested.data.items.map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining([top.id, child.id]));
    const flat = await app.api().orgs.listCollectionsInOrganizationById(org, { nested: false, limit: 1000 });
    expect(flat.data.items.map((c) => c.id)).toContain(top.id);
    expect(flat.data.items.map((c) => c.id)).not.toContain(child.id);
  });

  it('lists the spaces of a collection', async () => {
    const app = current();
    const org = app.organizationId;
    const guides = await create({ title: 'Handbook' });
    const space = await app.http('POST', `/v1/orgs/${org}/spaces`, {
      body: { title: 'Inside', parent: guides.id },
    });
    expect(space.status).toBe(201);
    await app.http('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Outside' } });
    const { data } = await app.api().collections.listSpacesInCollectionById(guides.id);
    expect(data.items.map((s) => s.title)).toEqual(['Inside']);
    expect(data.items[0].visibility).toBe('in-collection');
  });

  it('moves a collection into another and before a sibling', async () => {
    const app = current();
    const a = await create({ title: 'A' });
    const b = await create({ title: 'B' });
    const c = await create({ title: 'C', parent: b.id });
    const moved = await app.api().collections.moveCollection(a.id, {
      parent: b.id,
      position: { before: { type: 'collection', collection: c.id } },
    });
    expect(moved.data.parent).toBe(b.id);
    const back = await app.api().collections.moveCollection(a.id, { parent: null });
    expect(back.data.parent).toBeUndefined();
    const intoItself = await app.http('POST', `/v1/collections/${b.id}/move`, { body: { parent: c.id } });
    expect(intoItself.status).toBe(400);
    expect((intoItself.body as { error: { message: string } }).error.message).toMatch(/parent/);
    const nothing = await app.http('POST', `/v1/collections/${a.id}/move`, { body: {} });
    expect(nothing.status).toBe(400);
  });

  it('transfers a collection with everything in it to another organization the caller administers', async () => {
    const app = current();
    const org = app.organizationId;
    const other = await addOrganization(app, 'Target');
    const root = await create({ title: 'Moving' });
    const sub = await create({ title: 'Sub', parent: root.id });
    const space = (
      await app.http('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Deep', parent: sub.id } })
    ).body as { id: string };
    const { data } = await app.api().collections.transferCollection(root.id, { organization: other });
    expect(data.organization).toBe(other);
    expect((await app.api().collections.getCollectionById(sub.id)).data.organization).toBe(other);
    expect((await app.api().spaces.getSpaceById(space.id)).data.organization).toBe(other);
    const again = await app.http('POST', `/v1/collections/${root.id}/transfer`, {
      body: { organization: other },
    });
    expect(again.status).toBe(409);
  });

  it('deletes a collection (205); what it held moves up instead of disappearing', async () => {
    const app = current();
    const box = await create({ title: 'Box' });
    const inner = await create({ title: 'Inner', parent: box.id });
    const reply = await app.api().collections.deleteCollectionById(box.id);
    expect(reply.status).toBe(205);
    expect((await app.http('GET', `/v1/collections/${box.id}`)).status).toBe(404);
    expect((await app.api().collections.getCollectionById(inner.id)).data.parent).toBeUndefined();
  });

  it('enforces roles: readers cannot create, editors cannot delete', async () => {
    const app = current();
    const org = app.organizationId;
    const reader = await addUser(app, { organizationId: org, role: 'read' });
    const denied = await app.http('POST', `/v1/orgs/${org}/collections`, {
      token: reader.token,
      body: { title: 'x' },
    });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ error: { code: 403, message: expect.stringMatching(/role/) } });
    const editor = await addUser(app, { organizationId: org, role: 'edit' });
    const box = await create({ title: 'Kept' });
    const del = await app.http('DELETE', `/v1/collections/${box.id}`, { token: editor.token });
    expect(del.status).toBe(403);
    expect((await app.http('GET', `/v1/collections/${box.id}`)).status).toBe(200);
  });
});
