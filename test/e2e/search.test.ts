import { type Space, TranslationLanguage } from '@gitbook/api';
import { useTestApp } from '../support/app-harness';
import { type Change, markdownPage, publish as publishIn } from '../support/published';

describe('search in a space', () => {
  const current = useTestApp();

  const publish = (space: string, changes: Change[]) => publishIn(current(), space, changes);
  const page = markdownPage;
  const search = async (space: string, query: string, options: { limit?: number; page?: string } = {}) =>
    (
      await current()
        .api()
        .spaces.searchSpaceContent(space, { query, ...options })
    ).data;

  let space: Space;
  let ids: string[];
  beforeAll(async () => {
    const app = current();
    space = (await app.api().orgs.createSpace(app.organizationId, { title: 'Searchable' })).data as Space;
    ids = await publish(space.id, [
      page(
        'Installing the CLI',
        'Download the binary and run it.\n\n## Upgrading\n\nRun the installer again.\n',
        { slug: 'install' },
      ),
      page(
        'Configuration',
        'Options are read at startup.\n\n## Proxies\n\nWhen installing behind a proxy, set HTTPS_PROXY.\n',
      ),
      page('Changelog', 'Fixed crashes on startup.\n'),
    ]);
  });

  it('finds pages by stemmed words, title matches first, with the matching sections and excerpts', async () => {
    const found = await search(space.id, 'installs');
    expect(found.items.map((r) => r.title)).toEqual(['Installing the CLI', 'Configuration']);
    const [first, second] = found.items;
    expect(first).toMatchObject({ rank: 1, resultType: 'page', path: 'install', id: ids[0] });
    expect(second).toMatchObject({ rank: 2, resultType: 'section' });
    expect(second.sections?.[0]).toMatchObject({
      id: 'proxies',
      title: 'Proxies',
      path: 'configuration#proxies',
    });
    expect(second.sections?.[0].body).toContain('installing behind a proxy');
    expect(found.count).toBe(2);
  });

  it('still finds pages when one word of the query matches nothing, and ranks pages with more words first', async () => {
    const found = await search(space.id, 'startup xylophone');
    expect(found.items.map((r) => r.title).sort()).toEqual(['Changelog', 'Configuration']);
    const both = await search(space.id, 'startup crashes');
    expect(both.items[0].title).toBe('Changelog');
    expect((await search(space.id, 'xylophone')).items).toEqual([]);
  });

  it('pages through results by rank', async () => {
    const first = await search(space.id, 'startup installing', { limit: 1 });
    expect(first.items).toHaveLength(1);
    expect(first.next?.page).toEqual(expect.any(String));
    const rest = await search(space.id, 'startup installing', { limit: 10, page: first.next?.page });
    expect(rest.items.map((r) => r.rank)).toEqual(rest.items.map((_, i) => i + 2));
    expect([...first.items, ...rest.items].map((r) => r.id)).toHaveLength(
      new Set([...first.items, ...rest.items].map((r) => r.id)).size,
    );
  });

  it('ranks the page holding the query words as a sequence first, and requires a quoted phrase', async () => {
    const app = current();
    const other = (await app.api().orgs.createSpace(app.organizationId, { title: 'Phrases' })).data as Space;
    const [scattered, sequence, reversed] = await publish(other.id, [
      page(
        'Tokens and keys',
        'Access is logged for every key. A token expires, a token is renewed, a token is revoked. Access rules apply.\n',
      ),
      page('Security', 'Teams rotating the access tokens of their members do it monthly.\n'),
      page('Grants', 'Token access is granted per team.\n'),
    ]);
    // The other pages hold both words too, one in its title, more often: the sequence comes first.
    for (const query of ['access token', 'rotate the access tokens', 'Access-Tokens'])
      expect([query, (await search(other.id, query)).items[0]?.id]).toEqual([query, sequence]);
    const all = await search(other.id, 'access token');
    expect(all.items.map((r) => r.id).sort()).toEqual([scattered, sequence, reversed].sort());
    expect(all.count).toBe(3);
    // Quoted, the phrase is required (as analysed: stemmed, stop words left out).
    const quoted = await search(other.id, '"access tokens"');
    expect(quoted.items.map((r) => r.id)).toEqual([sequence]);
    expect(quoted.count).toBe(1);
    expect((await search(other.id, 'grant "token access"')).items.map((r) => r.id)).toEqual([reversed]);
    expect((await search(other.id, '"access the token"')).items.map((r) => r.id)).toEqual([sequence]);
    expect((await search(other.id, '"team token"')).items).toEqual([]);
  });

  it('follows merges: edited and deleted pages are searched as they are now', async () => {
    await publish(space.id, [
      { operation: 'update_page', page: ids[2], document: { markdown: 'Nothing here anymore.\n' } },
      { operation: 'delete_page', page: ids[1] },
    ]);
    expect((await search(space.id, 'startup')).items).toEqual([]);
    expect((await search(space.id, 'anymore')).items.map((r) => r.id)).toEqual([ids[2]]);
  });

  it('searches a space in its language, and indexes its pages again when the language changes', async () => {
    const app = current();
    const created = await app.api().orgs.createSpace(app.organizationId, {
      title: 'Écurie',
      language: TranslationLanguage.Fr,
    });
    const french = created.data as Space;
    expect(french.language).toBe('fr');
    const [horses] = await publish(french.id, [
      page('Les chevaux', 'Les chevaux lisent les journaux du matin.\n'),
    ]);
    // French stems: "cheval" and "chevaux", "journal" and "journaux" are one word.
    expect((await search(french.id, 'cheval')).items.map((r) => r.id)).toEqual([horses]);
    const found = await search(french.id, 'journal');
    expect(found.items.map((r) => r.id)).toEqual([horses]);
    expect(found.items[0].sections?.[0].body).toContain('journaux');

    const english = await app.api().spaces.updateSpaceById(french.id, { language: TranslationLanguage.En });
    expect(english.data.language).toBe('en');
    expect((await search(french.id, 'cheval')).items).toEqual([]);
    expect((await search(french.id, 'chevaux')).items.map((r) => r.id)).toEqual([horses]);

    await app.api().spaces.updateSpaceById(french.id, { language: TranslationLanguage.Fr });
    expect((await search(french.id, 'cheval')).items.map((r) => r.id)).toEqual([horses]);
    // A space without a language is English: there, nothing is a form of "cheval".
    expect((await search(space.id, 'cheval')).items).toEqual([]);
  });

  it('refuses a query over 512 characters or with control characters', async () => {
    const app = current();
    expect((await app.http('GET', `/v1/spaces/${space.id}/search?query=${'a'.repeat(513)}`)).status).toBe(
      400,
    );
    expect((await app.http('GET', `/v1/spaces/${space.id}/search?query=a%07b`)).status).toBe(400);
    expect((await app.http('GET', `/v1/spaces/${space.id}/search`)).status).toBe(400);
  });
});
