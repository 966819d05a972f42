import { type Collection, MemberRole, type Space } from '@gitbook/api';
import { addUser, type TestApp, useTestApp } from '../support/app-harness';
import { type Change, markdownPage, publish as publishIn } from '../support/published';

describe('search across an organization', () => {
  const current = useTestApp();

  const publish = (space: string, changes: Change[]) => publishIn(current(), space, changes);
  const page = markdownPage;
  const space = async (app: TestApp, title: string, parent?: string) =>
    (await app.api().orgs.createSpace(app.organizationId, { title, ...(parent ? { parent } : {}) }))
      .data as Space;
  const collection = async (app: TestApp, title: string) =>
    (await app.api().orgs.createCollection(app.organizationId, { title })).data as Collection;
  const search = async (query: string, options: { limit?: number; page?: string; token?: string } = {}) => {
    const { token, ...rest } = options;
    const app = current();
    return (await app.api(token).orgs.searchOrganizationContent(app.organizationId, { query, ...rest })).data;
  };

  let manual: Space;
  let notes: Space;
  let manualPages: string[];
  let notesPages: string[];
  beforeAll(async () => {
    const app = current();
    manual = await space(app, 'Operator manual');
    notes = await space(app, 'Release notes');
    manualPages = await publish(manual.id, [
      page('Calibrating the flux capacitor', 'Turn the dial slowly.\n\n## Safety\n\nWear gloves.\n'),
      page('Maintenance', 'Clean the flux chamber monthly.\n'),
    ]);
    notesPages = await publish(notes.id, [page('Version 2', 'The capacitor was replaced.\n')]);
  });

  it('finds pages across spaces, grouped by space, the best page first, ranked over the whole result', async () => {
    const found = await search('capacitor');
    expect(found.items.map((s) => s.id)).toEqual([manual.id, notes.id]);
    expect(found.count).toBe(2);
    const [first, second] = found.items;
    expect(first).toMatchObject({ type: 'space', title: 'Operator manual' });
    expect(first.pages.map((p) => p.id)).toEqual([manualPages[0]]);
    expect(first.pages[0]).toMatchObject({
      resultType: 'page',
      rank: 1,
      title: 'Calibrating the flux capacitor',
    });
    expect(first.pages[0].urls.app).toContain(`/s/${manual.id}/page/${manualPages[0]}`);
    expect(second.pages.map((p) => p.id)).toEqual([notesPages[0]]);
    expect(second.pages[0]).toMatchObject({ resultType: 'section', rank: 2 });
    expect(second.pages[0].sections?.[0].body).toContain('capacitor was replaced');
    expect(first.score).toBeGreaterThan(second.score);

    const both = await search('flux');
    expect(both.items.map((s) => s.id)).toEqual([manual.id]);
    expect(both.items[0].pages.map((p) => p.rank)).toEqual([1, 2]);
    expect((await search('xylophone')).items).toEqual([]);
    expect((await search('xylophone')).count).toBe(0);
  });

  it('finds spaces by title, with their matching pages or none, before spaces matched by pages only', async () => {
    const app = current();
    const flux = await space(app, 'Flux engineering');
    const found = await search('flux');
    expect(found.items.map((s) => s.id)).toEqual([flux.id, manual.id]);
    expect(found.items[0]).toMatchObject({ title: 'Flux engineering', pages: [] });
    // A title match and page matches in one space.
    const operator = await search('operator manual gloves');
    expect(operator.items.map((s) => s.id)).toEqual([manual.id]);
    expect(operator.items[0].pages.map((p) => p.id)).toEqual([manualPages[0]]);
  });

  it('finds the spaces inside a collection whose title matches, even nested', async () => {
    const app = current();
    const box = await collection(app, 'Hydroponics lab');
    const inner = (
      await app.api().orgs.createCollection(app.organizationId, { title: 'Archive', parent: box.id })
    ).data;
    const direct = await space(app, 'Daily checks', box.id);
    const nested = await space(app, 'Old readings', inner.id);
    const outside = await space(app, 'Daily checks elsewhere');
    const found = await search('hydroponics');
    expect(found.items.map((s) => s.id).sort()).toEqual([direct.id, nested.id].sort());
    expect(found.items.every((s) => s.pages.length === 0)).toBe(true);
    // Its own title first, then a collection's: a space matching both comes before one matching either.
    const daily = await search('daily hydroponics');
    expect(daily.items.map((s) => s.id)).toEqual([direct.id, outside.id, nested.id]);
  });

  it('leaves deleted spaces out', async () => {
    const app = current();
    const gone = await space(app, 'Ephemeral zeppelin');
    expect((await search('zeppelin')).items.map((s) => s.id)).toEqual([gone.id]);
    expect((await app.api().spaces.deleteSpaceById(gone.id)).status).toBe(205);
    expect((await search('zeppelin')).items).toEqual([]);
  });

  it('shows a guest only the spaces shared with it, and a collection title only where it reaches', async () => {
    const app = current();
    const shared = await space(app, 'Shared walrus notes');
    const hidden = await space(app, 'Hidden walrus notes');
    const box = await collection(app, 'Secret walrus vault');
    const inBox = await space(app, 'Plain title', box.id);
    const guest = await addUser(app, { organizationId: app.organizationId, role: 'read' });
    await app.api().orgs.updateMemberInOrganizationById(app.organizationId, guest.userId, { role: null });
    expect((await search('walrus', { token: guest.token })).items).toEqual([]);

    await app.api().spaces.inviteToSpace(shared.id, { role: MemberRole.Read, users: [guest.userId] });
    await app.api().spaces.inviteToSpace(inBox.id, { role: MemberRole.Read, users: [guest.userId] });
    const seen = await search('walrus', { token: guest.token });
    // The space in the collection is shared, the collection is not: its title finds nothing for the guest.
    expect(seen.items.map((s) => s.id)).toEqual([shared.id]);
    expect(seen.count).toBe(1);
    const pages = await search('capacitor', { token: guest.token });
    expect(pages.items).toEqual([]);
    // The administrator finds all three.
    const all = await search('walrus');
    expect(all.items.map((s) => s.id).sort()).toEqual([shared.id, hidden.id, inBox.id].sort());
  });

  it('404 for someone who is not a member of the organization', async () => {
    const app = current();
    const outsider = await addUser(app);
    const reply = await app.http('GET', `/v1/orgs/${app.organizationId}/search?query=capacitor`, {
      token: outsider.token,
    });
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ error: { code: 404, message: expect.any(String) } });
  });

  it('refuses a missing or over-long query, naming it', async () => {
    const app = current();
    const base = `/v1/orgs/${app.organizationId}/search`;
    for (const path of [base, `${base}?query=${'a'.repeat(513)}`, `${base}?query=a%07b`]) {
      const reply = await app.http('GET', path);
      expect([path, reply.status]).toEqual([path, 400]);
      expect((reply.body as { error: { message: string } }).error.message).toMatch(/query/);
    }
    expect((await app.http('GET', `${base}?query=${'a'.repeat(512)}`)).status).toBe(200);
    expect((await app.http('GET', `${base}?query=x&page=%%%garbage`)).status).toBe(400);
  });

  it('pages through spaces, with page ranks that continue across pages', async () => {
    const app = current();
    const made = [];
    for (const title of ['Kestrel one', 'Kestrel two', 'Kestrel three']) {
      const s = await space(app, title);
      await publish(s.id, [page(`About ${title}`, 'A kestrel hovers.\n')]);
      made.push(s.id);
    }
    const first = await search('kestrel', { limit: 2 });
    expect(first.items).toHaveLength(2);
    expect(first.count).toBe(3);
    expect(first.next?.page).toEqual(expect.any(String));
    const rest = await search('kestrel', { limit: 2, page: first.next?.page });
    expect(rest.items).toHaveLength(1);
    expect(rest.next).toBeUndefined();
    const all = [...first.items, ...rest.items];
    expect(all.map((s) => s.id).sort()).toEqual([...made].sort());
    expect(all.flatMap((s) => s.pages.map((p) => p.rank)).sort()).toEqual([1, 2, 3]);
  });
});
