import { addOrganization, addUser, useTestApp } from '../support/app-harness';

describe('organizations over HTTP', () => {
  const current = useTestApp();

  it('lists the caller organizations (bootstrap admin) as the GitBook client reads them', async () => {
    const app = current();
    const { data } = await app.api().orgs.listOrganizationsForAuthenticatedUser();
    expect(data.count).toBe(1);
    expect(data.items[0]).toMatchObject({ object: 'organization', title: 'My organization' });
    expect(data.items[0].permissions.admin).toBe(true);
  });

  it('gets an organization, with permissions computed from the caller role', async () => {
    const app = current();
    const { data } = await app.api().orgs.getOrganizationById(app.organizationId);
    expect(data.id).toBe(app.organizationId);
    expect(data.urls.location).toBe(`http://docs.test/v1/orgs/${app.organizationId}`);

    const reader = await addUser(app, { organizationId: app.organizationId, role: 'read' });
    const { data: seen } = await app.api(reader.token).orgs.getOrganizationById(app.organizationId);
    expect(seen.permissions).toMatchObject({ view: true, admin: false, createContent: false });
  });

  it('pages through organizations with opaque page tokens', async () => {
    const app = current();
    await addOrganization(app, 'Second');
    await addOrganization(app, 'Third');
    const first = await app.http('GET', '/v1/orgs?limit=2');
    expect(first.status).toBe(200);
    const page1 = first.body as { count: number; items: { id: string }[]; next?: { page: string } };
    expect(page1.count).toBe(3);
    expect(page1.items).toHaveLength(2);
    expect(page1.next?.page).toEqual(expect.any(String));
    const second = await app.http('GET', `/v1/orgs?limit=2&page=${page1.next?.page}`);
    const page2 = second.body as { items: { id: string }[]; next?: unknown };
    expect(page2.items).toHaveLength(1);
    expect(page2.next).toBeUndefined();
    const ids = [...page1.items, ...page2.items].map((o) => o.id);
    expect(new Set(ids).size).toBe(3);
  });

  it('hides organizations the caller is not a member of (404)', async () => {
    const app = current();
    const outsider = await addUser(app);
    const reply = await app.http('GET', `/v1/orgs/${app.organizationId}`, { token: outsider.token });
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ error: { code: 404, message: expect.any(String) } });
    const list = await app.http('GET', '/v1/orgs', { token: outsider.token });
    expect(list.body).toEqual({ count: 0, items: [] });
  });
});
