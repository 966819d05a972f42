import { SiteType, SiteVisibility } from '@gitbook/api';
import { addOrganization, addUser, useTestApp } from '../support/app-harness';
import { logHead } from '../support/http-checks';

describe('sites over HTTP', () => {
  const current = useTestApp();

  const create = async (title: string, org = current().organizationId) => {
    const reply = await current().api().orgs.createSite(org, { title });
    expect(reply.status).toBe(201);
    return reply.data;
  };

  it("creates, gets, lists and deletes a site in GitBook's shape", async () => {
    const app = current();
    const org = app.organizationId;
    const created = await create('Handbook');
    const app_ = `http://docs.test/app/o/${org}/sites/${created.id}`;
    expect(created).toEqual({
      object: 'site',
      id: expect.any(String),
      type: 'basic',
      appliedType: 'basic',
      title: 'Handbook',
      visibility: 'public',
      defaultLevel: 'inherit',
      permissions: {
        view: true,
        access: true,
        edit: true,
        create: true,
        admin: true,
        installIntegration: true,
        viewAdaptiveSchema: true,
        editAdaptiveSchema: true,
      },
      published: false,
      siteSpaces: 0,
      createdAt: expect.any(String),
      adaptiveContent: { enabled: false },
      agentsContext: 'included',
      features: [],
      urls: {
        location: `http://docs.test/v1/orgs/${org}/sites/${created.id}`,
        app: app_,
        preview: `${app_}/preview`,
      },
    });
    expect((await app.api().orgs.getSiteById(org, created.id)).data).toEqual(created);

    const typed = await app.api().orgs.createSite(org, {
      title: 'Premium',
      type: SiteType.Premium,
      visibility: SiteVisibility.ShareLink,
      spaces: [],
    });
    expect(typed.data).toMatchObject({ type: 'premium', appliedType: 'premium', visibility: 'share-link' });
    const untitled = await app.http('POST', `/v1/orgs/${org}/sites`, { body: {} });
    expect(untitled.status).toBe(201);

    expect((await app.api().orgs.deleteSiteById(org, created.id)).status).toBe(205);
    expect((await app.http('GET', `/v1/orgs/${org}/sites/${created.id}`)).status).toBe(404);
    expect((await app.http('DELETE', `/v1/orgs/${org}/sites/${created.id}`)).status).toBe(404);
    const listed = (await app.api().orgs.listSites(org, { limit: 1000 })).data.items.map((s) => s.id);
    expect(listed).not.toContain(created.id);
    expect(listed).toContain(typed.data.id);
  });

  it('filters by title, published and type, and pages', async () => {
    const app = current();
    const org = await addOrganization(app, 'Site filters');
    const a = await create('Alpha', org);
    const b = await create('Beta', org);
    const c = (await app.api().orgs.createSite(org, { title: 'Gamma', type: SiteType.Ultimate })).data;
    await app.api().orgs.publishSite(org, b.id);
    const ids = async (query: Record<string, unknown>) =>
      (await app.api().orgs.listSites(org, query)).data.items.map((s) => s.id);
    expect(await ids({})).toEqual([a.id, b.id, c.id]);
    expect(await ids({ title: 'Beta' })).toEqual([b.id]);
    expect(await ids({ published: true })).toEqual([b.id]);
    expect(await ids({ published: false })).toEqual([a.id, c.id]);
    expect(await ids({ type: [SiteType.Ultimate] })).toEqual([c.id]);
    expect(await ids({ type: [SiteType.Ultimate, SiteType.Basic] })).toEqual([a.id, b.id, c.id]);
    expect(await ids({ type: [SiteType.Ultimate, SiteType.Premium] })).toEqual([c.id]);
    const several = (
      await app.api().orgs.listSites(org, { type: [SiteType.Basic, SiteType.Ultimate], limit: 2 })
    ).data;
    expect(several.items.map((s) => s.id)).toEqual([a.id, b.id]);
    expect(several.count).toBe(3);
    const rest = (
      await app.api().orgs.listSites(org, {
        type: [SiteType.Basic, SiteType.Ultimate],
        limit: 2,
        page: several.next?.page,
      })
    ).data;
    expect(rest.items.map((s) => s.id)).toEqual([c.id]);
    const first = (await app.api().orgs.listSites(org, { limit: 2 })).data;
    expect(first.items.map((s) => s.id)).toEqual([a.id, b.id]);
    const second = (await app.api().orgs.listSites(org, { limit: 2, page: first.next?.page })).data;
    expect(second.items.map((s) => s.id)).toEqual([c.id]);
    expect(second.next).toBeUndefined();
  });

  it('filters by part of the title in any case, by a space it publishes, and by both with the others', async () => {
    const app = current();
    const org = await addOrganization(app, 'Site filters by space');
    const api = app.api().orgs;
    const guides = await create('User Guides', org);
    const other = await create('Developer guide', org);
    const handbook = await create('Handbook', org);
    const ids = async (query: Record<string, unknown>) =>
      (await api.listSites(org, query)).data.items.map((s) => s.id);
    expect(await ids({ title: 'guide' })).toEqual([guides.id, other.id]);
    expect(await ids({ title: 'GUIDES' })).toEqual([guides.id]);
    expect(await ids({ title: 'Handbook' })).toEqual([handbook.id]);
    expect(await ids({ title: 'nothing like it' })).toEqual([]);

    const shared = (await api.createSpace(org, { title: 'Shared' })).data.id;
    const alone = (await api.createSpace(org, { title: 'Alone' })).data.id;
    const inGuides = (await api.addSpaceToSite(org, guides.id, { spaceId: shared })).data;
    await api.addSpaceToSite(org, handbook.id, { spaceId: shared });
    // In a section too.
    await api.addSectionToSite(org, handbook.id, { spaceId: alone });
    await api.publishSite(org, handbook.id);
    expect(await ids({ space: shared })).toEqual([guides.id, handbook.id]);
    expect(await ids({ space: alone })).toEqual([handbook.id]);
    expect(await ids({ space: shared, published: true })).toEqual([handbook.id]);
    expect(await ids({ space: shared, title: 'guides' })).toEqual([guides.id]);
    const paged = (await api.listSites(org, { space: shared, limit: 1 })).data;
    expect(paged.items.map((s) => s.id)).toEqual([guides.id]);
    expect(paged.count).toBe(2);
    const next = (await api.listSites(org, { space: shared, limit: 1, page: paged.next?.page })).data;
    expect(next.items.map((s) => s.id)).toEqual([handbook.id]);

    // A space no site publishes, another organization's, or one gone: no site.
    expect(await ids({ space: (await api.createSpace(org, { title: 'Unpublished' })).data.id })).toEqual([]);
    const elsewhere = (await api.createSpace(app.organizationId, { title: 'Elsewhere' })).data.id;
    expect(await ids({ space: elsewhere })).toEqual([]);
    await api.deleteSiteSpaceById(org, guides.id, inGuides.id);
    expect(await ids({ space: shared })).toEqual([handbook.id]);
    await app.api().spaces.deleteSpaceById(alone);
    expect(await ids({ space: alone })).toEqual([]);
  });

  it('updates every setting, removes the proxy with null, and publishes and unpublishes', async () => {
    const app = current();
    const org = app.organizationId;
    const site = await create('Settings');
    const updated = (
      await app.api().orgs.updateSiteById(org, site.id, {
        title: 'Renamed',
        visibility: SiteVisibility.VisitorAuth,
        basename: 'guides',
        adaptiveContent: { enabled: true },
        proxy: 'www.company.com/developer/docs',
      })
    ).data;
    expect(updated).toMatchObject({
      title: 'Renamed',
      visibility: 'visitor-auth',
      basename: 'guides',
      adaptiveContent: { enabled: true },
      proxy: {
        origin: 'www.company.com/developer/docs',
        target: expect.stringMatching(/^http:\/\/docs\.test\//),
      },
    });
    const excluded = await app.http('PATCH', `/v1/orgs/${org}/sites/${site.id}`, {
      body: { agentsContext: 'excluded' },
    });
    expect(excluded.body).toMatchObject({ agentsContext: 'excluded', title: 'Renamed' });

    const published = (await app.api().orgs.publishSite(org, site.id)).data;
    expect(published).toMatchObject({
      published: true,
      urls: { published: 'https://www.company.com/developer/docs' },
    });
    // Publishing a published site changes nothing.
    const head = await logHead(app);
    expect((await app.api().orgs.publishSite(org, site.id)).data).toMatchObject({ published: true });
    expect(await logHead(app)).toBe(head);

    const unproxied = (await app.api().orgs.updateSiteById(org, site.id, { proxy: null })).data;
    expect(unproxied).not.toHaveProperty('proxy');
    expect(unproxied.urls.published).toBe(`http://docs.test/app/o/${org}/sites/${site.id}/published`);

    const unpublished = (await app.api().orgs.unpublishSite(org, site.id)).data;
    expect(unpublished.published).toBe(false);
    expect(unpublished.urls).not.toHaveProperty('published');
    expect((await app.api().orgs.getSiteById(org, site.id)).data).toEqual(unpublished);
  });

  it('refuses bad input with a 400 naming the field, and writes nothing', async () => {
    const app = current();
    const org = app.organizationId;
    const site = await create('Guarded input');
    const sites = `/v1/orgs/${org}/sites`;
    const one = `${sites}/${site.id}`;
    const cases: [string, string, unknown, RegExp][] = [
      ['POST', sites, { title: 'x' }, /title/],
      ['POST', sites, { title: 'x'.repeat(129) }, /title/],
      ['POST', sites, { title: '  ' }, /title/],
      ['POST', sites, { title: 'a\u0000b' }, /title/],
      ['POST', sites, { type: 'enterprise' }, /type/],
      ['POST', sites, { visibility: 'secret' }, /visibility/],
      ['POST', sites, { spaces: ['s1'] }, /^spaces/],
      ['POST', sites, { spaces: 'all' }, /spaces/],
      ['PATCH', one, { title: 'x' }, /title/],
      ['PATCH', one, { basename: '' }, /basename/],
      ['PATCH', one, { basename: 'x'.repeat(101) }, /basename/],
      ['PATCH', one, { adaptiveContent: true }, /adaptiveContent/],
      ['PATCH', one, { adaptiveContent: { enabled: 'yes' } }, /adaptiveContent/],
      ['PATCH', one, { agentsContext: 'maybe' }, /agentsContext/],
      ['PATCH', one, { proxy: 'https://company.com/docs' }, /proxy/],
      ['PATCH', one, { proxy: 'company.com' }, /proxy/],
      ['PATCH', one, { proxy: `company.com/${'d'.repeat(512)}` }, /proxy/],
      ['PATCH', one, { defaultSiteSpace: 'ss1' }, /defaultSiteSpace/],
      ['PATCH', one, { defaultSiteSection: 'sc1' }, /defaultSiteSection/],
      ['PATCH', one, { defaultLevel: 'read' }, /^defaultLevel is not accepted/],
      ['PATCH', one, { styleguide: null }, /^styleguide is not accepted/],
      ['GET', `${sites}?published=yes`, undefined, /published/],
      ['GET', `${sites}?space=not%20an%20id`, undefined, /^space must be the id of a space/],
      ['GET', `${sites}?type=enterprise`, undefined, /type/],
    ];
    for (const [method, path, sent, names] of cases) {
      const head = await logHead(app);
      const reply = await app.http(method, path, sent === undefined ? {} : { body: sent });
      expect({ path, sent, status: reply.status }).toEqual({ path, sent, status: 400 });
      expect((reply.body as { error: { message: string } }).error.message).toMatch(names);
      expect(await logHead(app)).toBe(head);
    }
    expect((await app.api().orgs.getSiteById(org, site.id)).data).toEqual(site);
  });

  it('lets members read, `create` create, and only admins change, publish or delete', async () => {
    const app = current();
    const org = app.organizationId;
    const site = await create('Roles');
    const reader = await addUser(app, { organizationId: org, role: 'read' });
    const seen = (await app.api(reader.token).orgs.getSiteById(org, site.id)).data;
    expect(seen.permissions).toMatchObject({ view: true, edit: false, create: false, admin: false });
    const creator = await addUser(app, { organizationId: org, role: 'create' });
    const made = await app.http('POST', `/v1/orgs/${org}/sites`, {
      token: creator.token,
      body: { title: 'Mine' },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ permissions: { create: true, admin: false } });
    for (const token of [reader.token, creator.token]) {
      const denied = [
        await app.http('PATCH', `/v1/orgs/${org}/sites/${site.id}`, { token, body: { title: 'No' } }),
        await app.http('POST', `/v1/orgs/${org}/sites/${site.id}/publish`, { token }),
        await app.http('POST', `/v1/orgs/${org}/sites/${site.id}/unpublish`, { token }),
        await app.http('DELETE', `/v1/orgs/${org}/sites/${site.id}`, { token }),
      ];
      expect(denied.map((r) => r.status)).toEqual([403, 403, 403, 403]);
    }
    const readerCreates = await app.http('POST', `/v1/orgs/${org}/sites`, { token: reader.token, body: {} });
    expect(readerCreates.status).toBe(403);

    const outsider = await addUser(app);
    expect(
      (await app.http('GET', `/v1/orgs/${org}/sites/${site.id}`, { token: outsider.token })).status,
    ).toBe(404);
    const elsewhere = await addOrganization(app, 'Elsewhere');
    expect((await app.http('GET', `/v1/orgs/${elsewhere}/sites/${site.id}`)).status).toBe(404);
    const moved = await app.http('PATCH', `/v1/orgs/${elsewhere}/sites/${site.id}`, {
      body: { title: 'Moved' },
    });
    expect(moved.status).toBe(404);
    expect((await app.http('POST', `/v1/orgs/${elsewhere}/sites/${site.id}/publish`)).status).toBe(404);
  });

  it("reads GitBook's defaults until the customization is set, then replaces it whole", async () => {
    const app = current();
    const org = app.organizationId;
    const site = await create('Branded');
    const defaults = (await app.api().orgs.getSiteCustomizationById(org, site.id)).data;
    expect(defaults).toMatchObject({ styling: { theme: 'clean' }, insights: { trackingCookie: true } });
    expect(defaults).not.toHaveProperty('updatedAt');
    expect(
      (await app.http('GET', `/v1/orgs/${org}/sites/${site.id}/customization?unmasked=true`)).body,
    ).toEqual(defaults);

    const { updatedAt: _none, ...input } = defaults;
    const wanted = {
      ...input,
      title: 'Branded docs',
      localizedTitle: { fr: 'Documentation' },
      favicon: { emoji: '📘' },
      styling: { ...input.styling, primaryColor: { light: '#FF0000', dark: '#00FF00' } },
      header: {
        ...input.header,
        links: [{ title: 'Home', to: { kind: 'url', url: 'https://example.com' }, links: [] }],
      },
    };
    const set = (await app.api().orgs.updateSiteCustomizationById(org, site.id, wanted as never)).data;
    expect(set).toEqual({ ...wanted, updatedAt: expect.any(String) });
    expect((await app.api().orgs.getSiteCustomizationById(org, site.id)).data).toEqual(set);

    // The same again records nothing; an update without the optional title drops it.
    const head = await logHead(app);
    await app.api().orgs.updateSiteCustomizationById(org, site.id, wanted as never);
    expect(await logHead(app)).toBe(head);
    const { title: _t, ...untitled } = wanted;
    const dropped = (await app.api().orgs.updateSiteCustomizationById(org, site.id, untitled as never)).data;
    expect(dropped).not.toHaveProperty('title');
  });

  it("refuses a customization that does not fit GitBook's schema, naming the setting, and writes nothing", async () => {
    const app = current();
    const org = app.organizationId;
    const site = await create('Strict branding');
    const path = `/v1/orgs/${org}/sites/${site.id}/customization`;
    const { data: defaults } = await app.api().orgs.getSiteCustomizationById(org, site.id);
    const styling = defaults.styling as unknown as Record<string, unknown>;
    const cases: [unknown, RegExp][] = [
      [{}, /styling is required/],
      [
        { ...defaults, styling: { ...styling, primaryColor: { light: 'red', dark: '#000' } } },
        /styling\.primaryColor\.light/,
      ],
      [{ ...defaults, styling: { ...styling, theme: 'neon' } }, /styling\.theme/],
      [{ ...defaults, ai: { mode: 'oracle' } }, /ai\.mode/],
      [{ ...defaults, insights: null }, /insights/],
      [{ ...defaults, title: 'x' }, /title/],
      [{ ...defaults, sparkles: true }, /sparkles/],
    ];
    for (const [sent, names] of cases) {
      const head = await logHead(app);
      const reply = await app.http('PUT', path, { body: sent });
      expect({ names, status: reply.status }).toEqual({ names, status: 400 });
      expect((reply.body as { error: { message: string } }).error.message).toMatch(names);
      expect(await logHead(app)).toBe(head);
    }
    expect((await app.api().orgs.getSiteCustomizationById(org, site.id)).data).toEqual(defaults);

    const creator = await addUser(app, { organizationId: org, role: 'create' });
    expect((await app.http('GET', path, { token: creator.token })).status).toBe(200);
    expect((await app.http('PUT', path, { token: creator.token, body: defaults })).status).toBe(403);
  });

  it('records each change in the audit log', async () => {
    const app = current();
    const org = app.organizationId;
    const audited = await create('Audited');
    await app.api().orgs.updateSiteById(org, audited.id, { title: 'Audited 2' });
    await app.api().orgs.publishSite(org, audited.id);
    await app.api().orgs.unpublishSite(org, audited.id);
    const { data: defaults } = await app.api().orgs.getSiteCustomizationById(org, audited.id);
    await app.api().orgs.updateSiteCustomizationById(org, audited.id, { ...defaults, title: 'Audited docs' });
    await app.api().orgs.deleteSiteById(org, audited.id);
    const events = (await app.http('GET', `/v1/orgs/${org}/audit-events?limit=100`)).body as {
      items: { action: string; target?: { id: string } }[];
    };
    const actions = events.items.filter((e) => e.target?.id === audited.id).map((e) => e.action);
    expect(actions.sort()).toEqual([
      'site.created',
      'site.customization_updated',
      'site.deleted',
      'site.published',
      'site.unpublished',
      'site.updated',
    ]);
  });
});
