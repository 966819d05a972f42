import { publishingAuthStream } from '@app/sites/domain/publishing-auth.decider';
import { addOrganization, addUser, useTestApp } from '../support/app-harness';

describe("a site's publishing auth over HTTP", () => {
  const current = useTestApp();

  const newSite = async () => {
    const app = current();
    return (await app.api().orgs.createSite(app.organizationId, { title: 'Gated' })).data.id;
  };

  it('answers the defaults with a private key, sets and unsets URLs, and regenerates the key', async () => {
    const app = current();
    const org = app.organizationId;
    const site = await newSite();
    const { orgs } = app.api();

    const first = (await orgs.getSitePublishingAuthById(org, site)).data;
    expect(first).toEqual({ object: 'publishing-auth', backend: 'custom', privateKey: expect.any(String) });
    expect(first.privateKey.length * 6).toBeGreaterThanOrEqual(256);
    // Another site has another key.
    const other = await newSite();
    expect((await orgs.getSitePublishingAuthById(org, other)).data.privateKey).not.toBe(first.privateKey);

    const set = await orgs.updateSitePublishingAuthById(org, site, {
      backend: 'custom',
      fallbackURL: 'https://company.com/login',
      logoutURL: 'https://company.com/logout',
    });
    expect(set.status).toBe(200);
    expect(set.data).toEqual({
      ...first,
      fallbackURL: 'https://company.com/login',
      logoutURL: 'https://company.com/logout',
    });
    const unset = (await orgs.updateSitePublishingAuthById(org, site, { backend: 'custom', logoutURL: null }))
      .data;
    expect(unset).toEqual({ ...first, fallbackURL: 'https://company.com/login' });

    const regenerated = await orgs.regenerateSitePublishingAuthById(org, site);
    expect(regenerated.status).toBe(200);
    expect(regenerated.data).toEqual({ ...unset, privateKey: expect.any(String) });
    expect(regenerated.data.privateKey).not.toBe(first.privateKey);
    expect((await orgs.getSitePublishingAuthById(org, site)).data).toEqual(regenerated.data);

    // The key is derived, never stored.
    const log = await app.built.storage.events.readStream(publishingAuthStream(site));
    expect(log.map((e) => e.type)).toEqual([
      'SitePublishingAuthUpdated',
      'SitePublishingAuthUpdated',
      'SitePublishingAuthKeyRegenerated',
    ]);
    expect(JSON.stringify(log)).not.toContain(first.privateKey);
    expect(JSON.stringify(log)).not.toContain(regenerated.data.privateKey);
  });

  it('refuses bad input naming the field, and the integration backend, changing nothing', async () => {
    const app = current();
    const path = `/v1/orgs/${app.organizationId}/sites/${await newSite()}/publishing/auth`;
    for (const [body, field] of [
      [{ backend: 'custom', fallbackURL: 'ftp://company.com' }, 'fallbackURL'],
      [{ backend: 'custom', logoutURL: 42 }, 'logoutURL'],
      [{ backend: 'other' }, 'backend'],
      [{}, 'backend'],
      [{ backend: 'integration' }, 'backend'],
    ] as const) {
      const reply = await app.http('PATCH', path, { body });
      expect({ body, status: reply.status }).toEqual({ body, status: 400 });
      expect(JSON.stringify(reply.body)).toContain(field);
    }
    expect((await app.http('GET', path)).body).toEqual({
      object: 'publishing-auth',
      backend: 'custom',
      privateKey: expect.any(String),
    });
  });

  it("shows the key to the organization's admins only, and nothing of another organization's site", async () => {
    const app = current();
    const site = await newSite();
    const path = `/v1/orgs/${app.organizationId}/sites/${site}/publishing/auth`;
    const editor = await addUser(app, { organizationId: app.organizationId, role: 'edit' });
    expect((await app.http('GET', path, { token: editor.token })).status).toBe(403);
    expect((await app.http('POST', `${path}/regenerate`, { token: editor.token })).status).toBe(403);
    const elsewhere = await addOrganization(app, 'Elsewhere');
    const outsider = await addUser(app, { organizationId: elsewhere, role: 'admin' });
    const theirs = `/v1/orgs/${elsewhere}/sites/${site}/publishing/auth`;
    expect((await app.http('GET', theirs, { token: outsider.token })).status).toBe(404);
    expect((await app.http('GET', path, { token: outsider.token })).status).toBe(404);
  });

  it('records each change in the audit log, without the key', async () => {
    const app = current();
    const site = await newSite();
    const { data } = await app.api().orgs.regenerateSitePublishingAuthById(app.organizationId, site);
    await app.api().orgs.updateSitePublishingAuthById(app.organizationId, site, {
      backend: 'custom',
      fallbackURL: 'https://company.com/login',
    });
    const reply = await app.http('GET', `/v1/orgs/${app.organizationId}/audit-events?limit=100`);
    const events = reply.body as { items: { action: string; target?: { id: string } }[] };
    const actions = events.items.filter((e) => e.target?.id === site).map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['site_publishing_auth.key_regenerated', 'site_publishing_auth.updated']),
    );
    expect(JSON.stringify(reply.body)).not.toContain(data.privateKey);
  });
});
