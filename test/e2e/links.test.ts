import type { Space } from '@gitbook/api';
import { useTestApp } from '../support/app-harness';

type Usage = {
  status: string;
  relation: string;
  locationReferences: {
    kind: string;
    page?: { id: string; title: string };
    internalLocation?: { type: string };
  }[];
  targetReference?: { kind: string; url?: string; page?: { id: string }; file?: { id: string } };
};
type Listing = {
  count: number;
  stats: { total: number; broken: { total: number } };
  items: Usage[];
  next?: { page: string };
};

describe('links and backlinks', () => {
  const current = useTestApp();
  let space: Space;
  let appBase: string;
  let pages: Record<string, string>;
  let file: string;

  beforeAll(async () => {
    const app = current();
    space = (await app.api().orgs.createSpace(app.organizationId, { title: 'Linked' })).data as Space;
    const cr = (await app.api().spaces.createChangeRequest(space.id, { subject: 'Links' })).data;
    appBase = cr.urls.app.split('/o/')[0];
    const reply = await app.http(
      'POST',
      `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`,
      {
        body: {
          changes: [
            {
              operation: 'insert_files',
              files: [{ name: 'logo.png', url: 'https://example.com/logo.png', ref: 'logo' }],
            },
            {
              operation: 'insert_page',
              title: 'Target',
              ref: 'target',
              document: { markdown: 'The target.\n' },
            },
            {
              operation: 'insert_page',
              title: 'Source',
              document: {
                markdown: [
                  'See [the target](./target.md) and [the site](https://example.com/docs).',
                  '',
                  `A [lost page](/pages/no-such-page) and [the app](${appBase}/o/x).`,
                  '',
                  '![Logo](./logo)',
                  '',
                ].join('\n'),
              },
            },
          ],
        },
      },
    );
    expect(reply.status).toBe(200);
    const body = reply.body as {
      changes: { ref?: string; page: { id: string } }[];
      insertedFiles: { id: string }[];
    };
    pages = Object.fromEntries(body.changes.map((c) => [c.ref ?? 'source', c.page.id]));
    file = body.insertedFiles[0].id;
    expect((await app.api().spaces.mergeChangeRequest(space.id, cr.id)).data.result).toBe('merge');
  });

  const get = async <T>(path: string) => {
    const reply = await current().http('GET', path);
    expect(reply.status).toBe(200);
    return reply.body as T;
  };

  it('lists every link of the space with its status, and stats that a status filter leaves whole', async () => {
    const all = await get<Listing>(`/v1/spaces/${space.id}/links`);
    const byStatus = (status: string) => all.items.filter((i) => i.status === status);
    expect(all.count).toBe(all.items.length);
    expect(all.stats).toEqual({ total: all.items.length, broken: { total: 1 } });
    expect(byStatus('broken')).toHaveLength(1);
    expect(byStatus('in-app')).toHaveLength(1);
    const toTarget = all.items.find((i) => i.targetReference?.page?.id === pages.target);
    expect(toTarget).toMatchObject({ status: 'ok', relation: 'reference' });
    expect(toTarget?.locationReferences[0]).toMatchObject({
      kind: 'page',
      page: { id: pages.source, title: 'Source' },
    });
    const external = all.items.find((i) => i.targetReference?.url === 'https://example.com/docs');
    expect(external?.status).toBe('ok');
    const image = all.items.find((i) => i.targetReference?.file?.id === file);
    expect(image).toMatchObject({ status: 'ok', relation: 'dependsOn' });

    const broken = await get<Listing>(`/v1/spaces/${space.id}/links?status=broken`);
    expect(broken.items).toHaveLength(1);
    expect(broken.stats).toEqual(all.stats);
    const first = await get<Listing>(`/v1/spaces/${space.id}/links?limit=2`);
    expect(first.items).toHaveLength(2);
    const rest = await get<Listing>(`/v1/spaces/${space.id}/links?limit=100&page=${first.next?.page}`);
    expect(first.items.length + rest.items.length).toBe(all.count);
  });

  it('lists a page links, and none for a page without any', async () => {
    const source = await get<Listing>(`/v1/spaces/${space.id}/content/page/${pages.source}/links`);
    expect(source.count).toBe(5);
    const target = await get<Listing>(`/v1/spaces/${space.id}/content/page/${pages.target}/links`);
    expect(target).toMatchObject({ count: 0, items: [], stats: { total: 0, broken: { total: 0 } } });
    expect((await current().http('GET', `/v1/spaces/${space.id}/content/page/missing/links`)).status).toBe(
      404,
    );
  });

  it('lists the backlinks of a file, in the space and in a change request', async () => {
    const backlinks = await get<{ count: number; items: { kind: string; page: { id: string } }[] }>(
      `/v1/spaces/${space.id}/content/files/${file}/backlinks`,
    );
    expect(backlinks.items.map((b) => [b.kind, b.page.id])).toEqual([['page', pages.source]]);
    const cr = (await current().api().spaces.createChangeRequest(space.id, { subject: 'Later' })).data;
    const inCr = await get<{ count: number }>(
      `/v1/spaces/${space.id}/change-requests/${cr.id}/content/files/${file}/backlinks`,
    );
    expect(inCr.count).toBe(1);
    const crLinks = await get<Listing>(
      `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${pages.source}/links`,
    );
    expect(crLinks.count).toBe(5);
  });

  it('answers the embed of a URL as a link card, never fetching it; refuses what is not an http URL', async () => {
    const api = current().api();
    const url = 'https://www.example.com/docs/start/?utm=1#top';
    const card = { type: 'link', title: 'example.com/docs/start', site: 'example.com' };
    expect((await api.spaces.getEmbedByUrlInSpace(space.id, { url })).data).toEqual(card);
    expect((await api.urls.getEmbedByUrl({ url })).data).toEqual(card);
    for (const bad of ['javascript:alert(1)', 'file:///etc/passwd', 'example.com', 'http://[::1']) {
      for (const path of [`/v1/spaces/${space.id}/embed`, '/v1/urls/embed']) {
        const reply = await current().http('GET', `${path}?url=${encodeURIComponent(bad)}`);
        expect(reply.status).toBe(400);
        expect(reply.body).toEqual({ error: { code: 400, message: 'url must be an http or https URL' } });
      }
    }
  });
});
