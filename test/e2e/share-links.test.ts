import { shareLinkStream } from '@app/sites/domain/share-link.decider';
import { ShareLinkQueries } from '@app/sites/read/share-links.queries';
import {
  addOrganization,
  addUser,
  removeDir,
  startTestApp,
  type TestApp,
  tempDataDir,
  useTestApp,
} from '../support/app-harness';

/** The key in a link's published URL, and the site it opens through the lookup. */
const keyOf = (url: string | undefined) => new URL(url ?? 'http://none').searchParams.get('shareKey') ?? '';
const resolve = (app: TestApp, key: string) => app.built.app.get(ShareLinkQueries).resolve(key);

describe('share links over HTTP', () => {
  const current = useTestApp();

  const publishedSite = async (app: TestApp, org: string) => {
    const { data: site } = await app.api().orgs.createSite(org, { title: 'Shared' });
    await app.api().orgs.publishSite(org, site.id);
    return site.id;
  };

  it('creates a link whose URL carries an unguessable key, lists, renames, deactivates and deletes it', async () => {
    const app = current();
    const org = app.organizationId;
    const site = await publishedSite(app, org);

    const reply = await app.api().orgs.createSiteShareLink(org, site, { name: 'Reviewers' });
    expect(reply.status).toBe(201);
    const created = reply.data;
    expect(created).toEqual({
      object: 'share-link',
      id: expect.any(String),
      createdAt: expect.any(String),
      name: 'Reviewers',
      active: true,
      urls: { published: expect.stringMatching(/^http:\/\/docs\.test\/app\/o\/.+\/published\?shareKey=/) },
    });
    const key = keyOf(created.urls.published);
    // base64url: 6 bits a character.
    expect(key.length * 6).toBeGreaterThanOrEqual(128);
    expect(await resolve(app, key)).toEqual({ organization: org, siteId: site, shareLinkId: created.id });
    // The key is derived, never stored: the log holds only its hash.
    const log = await app.built.storage.events.readStream(shareLinkStream(created.id));
    expect(JSON.stringify(log)).not.toContain(key);

    const other = (await app.api().orgs.createSiteShareLink(org, site, { name: 'Partners' })).data;
    expect(keyOf(other.urls.published)).not.toBe(key);
    const listed = (await app.api().orgs.listSiteShareLinks(org, site)).data;
    expect(listed.items).toEqual([created, other]);
    expect(listed.count).toBe(2);
    const found = (await app.api().orgs.listSiteShareLinks(org, site, { search: 'partn' })).data.items;
    expect(found.map((l) => l.id)).toEqual([other.id]);
    const byKey = (await app.api().orgs.listSiteShareLinks(org, site, { search: key })).data.items;
    expect(byKey.map((l) => l.id)).toEqual([created.id]);

    const renamed = (
      await app.api().orgs.updateSiteShareLinkById(org, site, created.id, { name: 'Beta readers' })
    ).data;
    expect(renamed).toEqual({ ...created, name: 'Beta readers' });

    const off = (await app.api().orgs.updateSiteShareLinkById(org, site, created.id, { active: false })).data;
    expect(off).toMatchObject({ active: false, urls: created.urls });
    const types = (await app.built.storage.events.readStream(shareLinkStream(created.id))).map((e) => e.type);
    expect(types).toEqual(['ShareLinkCreated', 'ShareLinkRenamed', 'ShareLinkDeactivated']);
    expect(await resolve(app, key)).toBeNull();
    await app.api().orgs.updateSiteShareLinkById(org, site, created.id, { active: true });
    expect(await resolve(app, key)).toMatchObject({ shareLinkId: created.id });

    const deleted = await app.http('DELETE', `/v1/orgs/${org}/sites/${site}/share-links/${created.id}`);
    expect(deleted.status).toBe(205);
    expect(await resolve(app, key)).toBeNull();
    const again = await app.http('PATCH', `/v1/orgs/${org}/sites/${site}/share-links/${created.id}`, {
      body: { active: true },
    });
    expect(again.status).toBe(404);
    expect((await app.http('DELETE', `/v1/orgs/${org}/sites/${site}/share-links/${created.id}`)).status).toBe(
      404,
    );
    const left = (await app.api().orgs.listSiteShareLinks(org, site)).data.items.map((l) => l.id);
    expect(left).toEqual([other.id]);
    expect(await resolve(app, 'A'.repeat(43))).toBeNull();
  });

  it('gives no published URL while the site is unpublished, as the site itself', async () => {
    const app = current();
    const org = app.organizationId;
    const { data: site } = await app.api().orgs.createSite(org, { title: 'Draft' });
    const { data: link } = await app.api().orgs.createSiteShareLink(org, site.id, { name: 'Early' });
    expect(link.urls).toEqual({});
    await app.api().orgs.publishSite(org, site.id);
    const [listed] = (await app.api().orgs.listSiteShareLinks(org, site.id)).data.items;
    expect(keyOf(listed.urls.published)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("opens the site's structure, sections and site spaces with an active link's key, every published URL carrying it", async () => {
    const app = current();
    const org = app.organizationId;
    const api = app.api().orgs;
    const site = await publishedSite(app, org);
    const spaceId = async (title: string) => (await api.createSpace(org, { title })).data.id;
    await api.addSpaceToSite(org, site, { spaceId: await spaceId('Shared guide') });
    const section = (await api.addSectionToSite(org, site, { spaceId: await spaceId('Shared API') })).data;
    await api.addSectionGroupToSite(org, site, { title: 'Grouped', sections: [section.id] });
    const { data: link } = await api.createSiteShareLink(org, site, { name: 'Readers' });
    const key = keyOf(link.urls.published);

    /** Every `urls.published` in a body. */
    const publishedUrls = (body: unknown): string[] => {
      const found: string[] = [];
      const visit = (value: unknown) => {
        if (Array.isArray(value)) value.forEach(visit);
        else if (value && typeof value === 'object') {
          const urls = (value as { urls?: { published?: string } }).urls;
          if (urls?.published) found.push(urls.published);
          Object.values(value).forEach(visit);
        }
      };
      visit(body);
      return found;
    };
    const reads = async (shareKey?: string) => {
      const query = shareKey === undefined ? {} : { shareKey };
      return [
        (await api.getSiteStructure(org, site, query)).data,
        (await api.listSiteSections(org, site, query)).data,
        (await api.listSiteSpaces(org, site, query)).data,
      ];
    };
    for (const body of await reads(key)) {
      const urls = publishedUrls(body);
      expect(urls.length).toBeGreaterThan(0);
      for (const url of urls) expect(keyOf(url)).toBe(key);
    }
    // Without a key, the same URLs without it.
    const plain = (await reads()).flatMap(publishedUrls);
    expect(plain.every((url) => !url.includes('shareKey'))).toBe(true);
    const stripped = (await reads(key)).flatMap(publishedUrls).map((url) => {
      const parsed = new URL(url);
      parsed.searchParams.delete('shareKey');
      return parsed.toString();
    });
    expect(stripped).toEqual(plain.map((url) => new URL(url).toString()));

    const base = `/v1/orgs/${org}/sites/${site}`;
    const refused = async (shareKey: string) => {
      const paths = ['structure', 'sections', 'site-spaces'];
      for (const path of paths) {
        const reply = await app.http('GET', `${base}/${path}?shareKey=${encodeURIComponent(shareKey)}`);
        expect(reply.status).toBe(404);
        expect(reply.body).toMatchObject({
          error: { code: 404, message: expect.stringContaining('shareKey') },
        });
      }
    };
    await refused('not-a-key');
    await refused('A'.repeat(43));
    // Another site's link does not open this one.
    const other = await publishedSite(app, org);
    const { data: otherLink } = await api.createSiteShareLink(org, other, { name: 'Elsewhere' });
    await refused(keyOf(otherLink.urls.published));
    // Deactivated, then deleted: refused at once.
    await api.updateSiteShareLinkById(org, site, link.id, { active: false });
    await refused(key);
    await api.updateSiteShareLinkById(org, site, link.id, { active: true });
    expect((await app.http('GET', `${base}/structure?shareKey=${key}`)).status).toBe(200);
    expect((await app.http('DELETE', `${base}/share-links/${link.id}`)).status).toBe(205);
    await refused(key);
  });

  it('refuses a name over 50 characters, naming it', async () => {
    const app = current();
    const org = app.organizationId;
    const site = await publishedSite(app, org);
    const base = `/v1/orgs/${org}/sites/${site}/share-links`;
    for (const body of [{ name: 'x'.repeat(51) }, {}, { name: 7 }]) {
      const reply = await app.http('POST', base, { body });
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ error: { code: 400, message: expect.stringContaining('name') } });
    }
    const { data: link } = await app.api().orgs.createSiteShareLink(org, site, { name: 'x'.repeat(50) });
    const renamed = await app.http('PATCH', `${base}/${link.id}`, { body: { name: 'y'.repeat(51) } });
    expect(renamed.status).toBe(400);
    expect(renamed.body).toMatchObject({ error: { message: expect.stringContaining('name') } });
    const toggled = await app.http('PATCH', `${base}/${link.id}`, { body: { active: 'no' } });
    expect(toggled.status).toBe(400);
    expect(toggled.body).toMatchObject({ error: { message: expect.stringContaining('active') } });
  });

  it("finds no link of another organization's site, nor through another site", async () => {
    const app = current();
    const org = app.organizationId;
    const site = await publishedSite(app, org);
    const { data: link } = await app.api().orgs.createSiteShareLink(org, site, { name: 'Ours' });
    const elsewhere = await addOrganization(app, 'Share links elsewhere');
    const theirs = await publishedSite(app, elsewhere);
    expect((await app.http('GET', `/v1/orgs/${elsewhere}/sites/${site}/share-links`)).status).toBe(404);
    const wrongOrg = `/v1/orgs/${elsewhere}/sites/${theirs}/share-links/${link.id}`;
    expect((await app.http('PATCH', wrongOrg, { body: { name: 'Theirs' } })).status).toBe(404);
    expect((await app.http('DELETE', wrongOrg)).status).toBe(404);
    const other = await publishedSite(app, org);
    const wrongSite = `/v1/orgs/${org}/sites/${other}/share-links/${link.id}`;
    expect((await app.http('PATCH', wrongSite, { body: { active: false } })).status).toBe(404);
    expect((await app.api().orgs.listSiteShareLinks(org, other)).data.items).toEqual([]);
    const outsider = await addUser(app, { organizationId: elsewhere, role: 'admin' });
    const seen = await app.http('GET', `/v1/orgs/${org}/sites/${site}/share-links`, {
      token: outsider.token,
    });
    expect(seen.status).toBe(404);
  });

  it('leaves share links to admins: a member without the role is refused', async () => {
    const app = current();
    const org = app.organizationId;
    const site = await publishedSite(app, org);
    const { data: link } = await app.api().orgs.createSiteShareLink(org, site, { name: 'Admins only' });
    const base = `/v1/orgs/${org}/sites/${site}/share-links`;
    for (const role of ['create', 'read'] as const) {
      const { token } = await addUser(app, { organizationId: org, role });
      const replies = await Promise.all([
        app.http('GET', base, { token }),
        app.http('POST', base, { token, body: { name: 'Mine' } }),
        app.http('PATCH', `${base}/${link.id}`, { token, body: { active: false } }),
        app.http('DELETE', `${base}/${link.id}`, { token }),
      ]);
      expect(replies.map((r) => r.status)).toEqual([403, 403, 403, 403]);
    }
    expect(await resolve(app, keyOf(link.urls.published))).toMatchObject({ shareLinkId: link.id });
  });

  it('records each change in the audit log, without the key', async () => {
    const app = current();
    const org = app.organizationId;
    const site = await publishedSite(app, org);
    const { data: link } = await app.api().orgs.createSiteShareLink(org, site, { name: 'Audited' });
    await app.api().orgs.updateSiteShareLinkById(org, site, link.id, { name: 'Audited 2' });
    await app.api().orgs.updateSiteShareLinkById(org, site, link.id, { active: false });
    await app.api().orgs.updateSiteShareLinkById(org, site, link.id, { active: true });
    await app.api().orgs.deleteSiteShareLinkById(org, site, link.id);
    const reply = await app.http('GET', `/v1/orgs/${org}/audit-events?limit=100`);
    const events = reply.body as { items: { action: string; target?: { id: string } }[] };
    const actions = events.items.filter((e) => e.target?.id === link.id).map((e) => e.action);
    expect(actions.sort()).toEqual([
      'share_link.activated',
      'share_link.created',
      'share_link.deactivated',
      'share_link.deleted',
      'share_link.renamed',
    ]);
    expect(JSON.stringify(reply.body)).not.toContain(keyOf(link.urls.published));
  });
});

describe('share links of a server without SIGNING_KEY', () => {
  it('keep their keys across a restart: the key they derive from is kept in the data directory', async () => {
    const dataDir = tempDataDir();
    // Each start draws another key, as loadConfig does without SIGNING_KEY; the kept one wins.
    const start = (drawn: string) =>
      startTestApp({ dataDir, config: { signingKey: drawn.padEnd(43, '0'), signingKeyDrawn: true } });
    try {
      const first = await start('first');
      const org = first.organizationId;
      const { data: site } = await first.api().orgs.createSite(org, { title: 'Kept' });
      await first.api().orgs.publishSite(org, site.id);
      const link = (await first.api().orgs.createSiteShareLink(org, site.id, { name: 'Kept' })).data;
      await first.close();
      const second = await start('second');
      try {
        const again = (await second.api().orgs.listSiteShareLinks(org, site.id)).data.items;
        expect(again.map((l) => l.urls.published)).toEqual([link.urls.published]);
        expect(await resolve(second, keyOf(link.urls.published))).toMatchObject({ shareLinkId: link.id });
      } finally {
        await second.close();
      }
    } finally {
      removeDir(dataDir);
    }
  });
});
