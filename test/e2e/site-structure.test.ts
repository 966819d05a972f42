import type { SiteSection, SiteSpace } from '@gitbook/api';
import { addOrganization, addUser, eventually, useTestApp } from '../support/app-harness';

describe('site spaces, sections and structure over HTTP', () => {
  const current = useTestApp();

  const setup = async (title: string) => {
    const app = current();
    const org = app.organizationId;
    const api = app.api().orgs;
    const site = (await api.createSite(org, { title })).data;
    const space = async (spaceTitle: string) => (await api.createSpace(org, { title: spaceTitle })).data.id;
    return { app, org, api, site, space, base: `/v1/orgs/${org}/sites/${site.id}` };
  };

  it('adds, lists, updates, moves and deletes site spaces at the root of a site without sections', async () => {
    const { app, org, api, site, space, base } = await setup('Root spaces');
    const guide = await space('User Guide');
    const reference = await space('Reference');
    const a = (await api.addSpaceToSite(org, site.id, { spaceId: guide })).data;
    expect(a).toMatchObject({ object: 'site-space', path: 'user-guide', title: 'User Guide', default: true });
    expect(a.space).toMatchObject({ object: 'space', id: guide });
    expect(a).not.toHaveProperty('section');
    const b = (await api.addSpaceToSite(org, site.id, { spaceId: reference })).data;
    expect(b).toMatchObject({ path: 'reference', default: false });
    expect((await api.getSiteById(org, site.id)).data.siteSpaces).toBe(2);

    const ids = async (query: { default?: boolean } = {}) =>
      (await api.listSiteSpaces(org, site.id, query)).data.items.map((s: SiteSpace) => s.id);
    expect(await ids()).toEqual([a.id, b.id]);
    expect(await ids({ default: true })).toEqual([a.id]);
    expect(await ids({ default: false })).toEqual([b.id]);

    const moved = await app.http('POST', `${base}/site-spaces/${b.id}/move`, {
      body: { position: { before: { type: 'site-space', siteSpace: a.id } } },
    });
    expect(moved.status).toBe(200);
    expect(moved.headers.get('deprecation')).toBe('true');
    expect(await ids()).toEqual([b.id, a.id]);
    const toEnd = await app.http('POST', `${base}/site-spaces/${b.id}/move`, { body: {} });
    expect(toEnd.status).toBe(200);
    expect(await ids()).toEqual([a.id, b.id]);

    const updated = (await api.updateSiteSpaceById(org, site.id, a.id, { path: 'guide', spaceId: reference }))
      .data;
    expect(updated).toMatchObject({ id: a.id, path: 'guide', space: { id: reference } });
    await api.updateSiteById(org, site.id, { defaultSiteSpace: b.id });
    expect(await ids({ default: true })).toEqual([b.id]);

    const structure = (await api.getSiteStructure(org, site.id)).data;
    expect(structure.type).toBe('siteSpaces');
    expect(structure.structure.map((s) => s.id)).toEqual([a.id, b.id]);

    expect((await app.http('DELETE', `${base}/site-spaces/${a.id}`)).status).toBe(205);
    expect(await ids()).toEqual([b.id]);
    expect((await app.http('DELETE', `${base}/site-spaces/${a.id}`)).status).toBe(404);
    expect((await api.getSiteById(org, site.id)).data.siteSpaces).toBe(1);
  });

  it('adds sections, the first taking the root site spaces, and orders them through moves and sorts', async () => {
    const { app, org, api, site, space, base } = await setup('Sectioned');
    const rootSpace = (await api.addSpaceToSite(org, site.id, { spaceId: await space('Start') })).data;
    const apiSection = (
      await api.addSectionToSite(org, site.id, { spaceId: await space('API'), title: 'API docs' })
    ).data;
    expect(apiSection).toMatchObject({
      object: 'site-section',
      title: 'API docs',
      path: 'api-docs',
      default: false,
    });
    expect(apiSection.siteSpaces).toHaveLength(1);
    const sections = async () => (await api.listSiteSections(org, site.id)).data.items as SiteSection[];
    const [first, second] = await sections();
    expect(first).toMatchObject({ title: 'Sectioned', default: true });
    expect(first.siteSpaces.map((s) => s.id)).toEqual([rootSpace.id]);
    expect(second.id).toBe(apiSection.id);

    // A new site space goes to the default section unless one is named.
    const extra = (await api.addSpaceToSite(org, site.id, { spaceId: await space('Extra') })).data;
    expect(extra.section).toBe(first.id);
    const inApi = (
      await api.addSpaceToSite(org, site.id, { spaceId: await space('V2'), sectionId: apiSection.id })
    ).data;
    expect(inApi.section).toBe(apiSection.id);

    const sectionMove = await app.http('POST', `${base}/sections/${apiSection.id}/move`, {
      body: { position: { before: { type: 'site-section', siteSection: first.id } } },
    });
    expect(sectionMove.status).toBe(200);
    expect(sectionMove.headers.get('deprecation')).toBe('true');
    expect((await sections()).map((s) => s.id)).toEqual([apiSection.id, first.id]);

    const sorted = await api.sortSiteStructure(org, site.id, {
      item: { type: 'site-space', id: inApi.id },
      position: { before: { type: 'site-space', id: apiSection.siteSpaces[0].id } },
    });
    expect(sorted.data).toMatchObject({ id: inApi.id, object: 'site-space' });
    // An item the site does not have is named in the body: a 400 naming it, nothing moved.
    const unknown = await app.http('PATCH', `/v1/orgs/${org}/sites/${site.id}/structure/sort`, {
      body: { item: { type: 'site-section', id: 'notASectionHere0001' }, position: {} },
    });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain('item.id');
    const structure = (await api.getSiteStructure(org, site.id)).data;
    expect(structure.type).toBe('sections');
    const shape = (structure.structure as SiteSection[]).map((s) => [s.id, s.siteSpaces.map((x) => x.id)]);
    expect(shape).toEqual([
      [apiSection.id, [inApi.id, apiSection.siteSpaces[0].id]],
      [first.id, [rootSpace.id, extra.id]],
    ]);

    const updated = (
      await api.updateSiteSectionById(org, site.id, apiSection.id, {
        title: 'Reference',
        defaultSiteSpace: inApi.id,
        description: 'All endpoints',
      })
    ).data;
    expect(updated).toMatchObject({ title: 'Reference', description: 'All endpoints' });
    expect(updated.siteSpaces.find((s) => s.default)?.id).toBe(inApi.id);
    const notOwn = await app.http('PATCH', `${base}/sections/${apiSection.id}`, {
      body: { defaultSiteSpace: extra.id },
    });
    expect(notOwn.status).toBe(400);
    expect(JSON.stringify(notOwn.body)).toContain('defaultSiteSpace');
    const cleared = await app.http('PATCH', `${base}/sections/${apiSection.id}`, {
      body: { description: null },
    });
    expect(cleared.body).not.toHaveProperty('description');

    await api.updateSiteById(org, site.id, { defaultSiteSection: apiSection.id });
    expect((await sections()).find((s) => s.default)?.id).toBe(apiSection.id);

    expect((await app.http('DELETE', `${base}/sections/${first.id}`)).status).toBe(205);
    expect((await sections()).map((s) => s.id)).toEqual([apiSection.id]);
    expect((await api.getSiteById(org, site.id)).data.siteSpaces).toBe(2);
  });

  it('refuses bad input naming the field, another organization, and a member without the role', async () => {
    const { app, org, api, site, space, base } = await setup('Guarded');
    const siteSpace = (await api.addSpaceToSite(org, site.id, { spaceId: await space('Guarded') })).data;
    const bad = [
      [await app.http('POST', `${base}/site-spaces`, { body: {} }), 'spaceId'],
      [await app.http('POST', `${base}/site-spaces`, { body: { spaceId: 'nope' } }), 'spaceId'],
      [await app.http('PATCH', `${base}/site-spaces/${siteSpace.id}`, { body: { path: '' } }), 'path'],
      [
        await app.http('PATCH', `${base}/site-spaces/${siteSpace.id}`, {
          body: { condition: 'visitor.claims.beta' },
        }),
        'condition',
      ],
      [
        await app.http('POST', `${base}/sections`, { body: { spaceId: siteSpace.space.id, title: 'x' } }),
        'title',
      ],
      [
        await app.http('POST', `${base}/site-spaces/${siteSpace.id}/move`, {
          body: { position: { before: { type: 'site-space', siteSpace: siteSpace.id } } },
        }),
        'position',
      ],
    ] as const;
    for (const [reply, field] of bad) {
      expect(reply.status).toBe(400);
      expect((reply.body as { error: { message: string } }).error.message).toContain(field);
    }

    const elsewhere = await addOrganization(app, 'Other org');
    const foreign = (await api.createSpace(elsewhere, { title: 'Foreign' })).data.id;
    const foreignAdd = await app.http('POST', `${base}/site-spaces`, { body: { spaceId: foreign } });
    expect(foreignAdd.status).toBe(400);
    expect(JSON.stringify(foreignAdd.body)).toContain('spaceId');
    expect((await app.http('GET', `/v1/orgs/${elsewhere}/sites/${site.id}/site-spaces`)).status).toBe(404);
    expect((await app.http('GET', `/v1/orgs/${elsewhere}/sites/${site.id}/structure`)).status).toBe(404);

    const reader = await addUser(app, { organizationId: org, role: 'read' });
    const token = reader.token;
    expect((await app.http('GET', `${base}/site-spaces`, { token })).status).toBe(200);
    const denied = [
      await app.http('POST', `${base}/site-spaces`, { token, body: { spaceId: siteSpace.space.id } }),
      await app.http('DELETE', `${base}/site-spaces/${siteSpace.id}`, { token }),
      await app.http('POST', `${base}/sections`, { token, body: { spaceId: siteSpace.space.id } }),
    ];
    expect(denied.map((r) => r.status)).toEqual([403, 403, 403]);
  });

  it('leaves no site space of a deleted space, recorded in the site', async () => {
    const { app, org, api, site, space } = await setup('Detached');
    const kept = (await api.addSpaceToSite(org, site.id, { spaceId: await space('Kept') })).data;
    const doomedSpace = await space('Doomed');
    await api.addSpaceToSite(org, site.id, { spaceId: doomedSpace });
    await app.api().spaces.deleteSpaceById(doomedSpace);
    const ids = async () => (await api.listSiteSpaces(org, site.id)).data.items.map((s: SiteSpace) => s.id);
    // Hidden at once, and removed from the site by its own event shortly after.
    expect(await ids()).toEqual([kept.id]);
    await eventually(async () => (await api.getSiteById(org, site.id)).data.siteSpaces === 1);
    expect(await ids()).toEqual([kept.id]);
  });

  it('creates a site with its spaces', async () => {
    const app = current();
    const org = app.organizationId;
    const api = app.api().orgs;
    const one = (await api.createSpace(org, { title: 'One' })).data.id;
    const two = (await api.createSpace(org, { title: 'Two' })).data.id;
    const site = (await api.createSite(org, { title: 'With spaces', spaces: [one, two] })).data;
    expect(site.siteSpaces).toBe(2);
    const listed = (await api.listSiteSpaces(org, site.id)).data.items.map((s: SiteSpace) => s.space.id);
    expect(listed).toEqual([one, two]);
  });
});
