import { addOrganization, addUser, useTestApp } from '../support/app-harness';
import { logHead } from '../support/http-checks';

/** The seeds' translation settings (title, languages), which GitBook's client sends as it is given. */
interface TranslationSettings {
  object: 'translation-settings';
  id: string;
  title: string;
  languages: string[];
  createdAt: string;
  updatedAt: string;
  permissions: { view: boolean; edit: boolean };
  urls: { location: string };
}

// GitBook's client types these bodies as its `Translation`'s (source, language); the seeds' are these.
const body = (value: { title?: unknown; languages?: unknown; language?: unknown }) => value as never;

describe('translation settings over HTTP', () => {
  const current = useTestApp();

  const create = async (title: string, languages?: string[]) => {
    const app = current();
    const reply = await app
      .api()
      .orgs.createTranslation(app.organizationId, body({ title, ...(languages ? { languages } : {}) }));
    expect(reply.status).toBe(201);
    return reply.data as unknown as TranslationSettings;
  };

  it('creates, gets, replaces, lists and deletes translation settings through the GitBook client', async () => {
    const app = current();
    const org = app.organizationId;
    const created = await create('Docs in French', ['fr', 'pt-br']);
    expect(created).toEqual({
      object: 'translation-settings',
      id: expect.any(String),
      title: 'Docs in French',
      languages: ['fr', 'pt-br'],
      createdAt: expect.any(String),
      updatedAt: created.createdAt,
      permissions: { view: true, edit: true },
      urls: { location: `http://docs.test/v1/orgs/${org}/translations/${created.id}` },
    });
    expect((await app.api().orgs.getTranslation(org, created.id)).data).toEqual(created);

    const replaced = (
      await app
        .api()
        .orgs.updateTranslation(org, created.id, body({ title: 'Docs abroad', languages: ['ja'] }))
    ).data as unknown as TranslationSettings;
    expect(replaced).toMatchObject({ id: created.id, title: 'Docs abroad', languages: ['ja'] });
    expect((await app.api().orgs.getTranslation(org, created.id)).data).toEqual(replaced);
    // A body without languages keeps them.
    const renamed = (await app.api().orgs.updateTranslation(org, created.id, body({ title: 'Renamed' })))
      .data;
    expect(renamed).toMatchObject({ title: 'Renamed', languages: ['ja'] });

    const other = await create('Empty');
    expect(other.languages).toEqual([]);
    const listed = (await app.api().orgs.listTranslations(org, { limit: 1000 })).data;
    expect(listed.items.map((t) => t.id)).toEqual(expect.arrayContaining([created.id, other.id]));

    expect((await app.api().orgs.deleteTranslation(org, created.id)).status).toBe(205);
    expect((await app.http('GET', `/v1/orgs/${org}/translations/${created.id}`)).status).toBe(404);
    expect((await app.http('DELETE', `/v1/orgs/${org}/translations/${created.id}`)).status).toBe(404);
    const after = (await app.api().orgs.listTranslations(org, { limit: 1000 })).data;
    expect(after.items.map((t) => t.id)).not.toContain(created.id);
  });

  it("takes GitBook's language on creation as one more of the languages", async () => {
    const app = current();
    const org = app.organizationId;
    const reply = await app.api().orgs.createTranslation(org, body({ title: 'Japanese', language: 'ja' }));
    expect(reply.status).toBe(201);
    expect(reply.data).toMatchObject({ title: 'Japanese', languages: ['ja'] });
    const both = await app
      .api()
      .orgs.createTranslation(org, body({ title: 'Both', languages: ['fr', 'ja'], language: 'de' }));
    expect(both.data).toMatchObject({ languages: ['fr', 'ja', 'de'] });
    expect((await app.api().orgs.getTranslation(org, both.data.id)).data).toEqual(both.data);
    const once = await app
      .api()
      .orgs.createTranslation(org, body({ title: 'Once', languages: ['fr'], language: 'fr' }));
    expect(once.data).toMatchObject({ languages: ['fr'] });
  });

  it('pages through translation settings', async () => {
    const app = current();
    const org = await addOrganization(app, 'Paged');
    for (const title of ['A', 'B', 'C']) {
      await app.http('POST', `/v1/orgs/${org}/translations`, { body: { title } });
    }
    const first = (await app.api().orgs.listTranslations(org, { limit: 2 })).data;
    expect(first.items).toHaveLength(2);
    const second = (await app.api().orgs.listTranslations(org, { limit: 2, page: first.next?.page })).data;
    expect(second.items).toHaveLength(1);
    expect([...first.items, ...second.items].map((t) => (t as unknown as TranslationSettings).title)).toEqual(
      ['A', 'B', 'C'],
    );
  });

  it('refuses bad bodies with a 400 naming the field, and writes nothing', async () => {
    const app = current();
    const org = app.organizationId;
    const existing = await create('Existing', ['de']);
    const doc = { object: 'document', data: {}, nodes: [] };
    const cases: [string, string, unknown, RegExp][] = [
      ['POST', `/v1/orgs/${org}/translations`, {}, /title/],
      ['POST', `/v1/orgs/${org}/translations`, { title: '' }, /title/],
      ['POST', `/v1/orgs/${org}/translations`, { title: '   ' }, /title/],
      ['POST', `/v1/orgs/${org}/translations`, { title: 'x'.repeat(101) }, /title/],
      ['POST', `/v1/orgs/${org}/translations`, { title: 'a\u0000b' }, /title/],
      ['POST', `/v1/orgs/${org}/translations`, { title: 'T', languages: ['klingon'] }, /languages/],
      ['POST', `/v1/orgs/${org}/translations`, { title: 'T', languages: ['fr', 'fr'] }, /languages/],
      ['POST', `/v1/orgs/${org}/translations`, { title: 'T', languages: 'fr' }, /languages/],
      [
        'POST',
        `/v1/orgs/${org}/translations`,
        { title: 'T', source: { space: 's' } },
        /^source is not accepted/,
      ],
      ['POST', `/v1/orgs/${org}/translations`, { title: 'T', source: null }, /^source is not accepted/],
      ['POST', `/v1/orgs/${org}/translations`, { title: 'T', language: 'klingon' }, /^language/],
      ['POST', `/v1/orgs/${org}/translations`, { title: 'T', language: null }, /^language/],
      [
        'POST',
        `/v1/orgs/${org}/translations`,
        { title: 'T', instructions: doc },
        /^instructions is not accepted/,
      ],
      [
        'PUT',
        `/v1/orgs/${org}/translations/${existing.id}`,
        { title: 'T', instructions: doc },
        /^instructions is not accepted/,
      ],
      ['PUT', `/v1/orgs/${org}/translations/${existing.id}`, { title: 'T', language: 'fr' }, /language/],
      ['PUT', `/v1/orgs/${org}/translations/${existing.id}`, { languages: ['fr'] }, /title/],
      ['PUT', `/v1/orgs/${org}/translations/${existing.id}`, { title: 'T', languages: [null] }, /languages/],
    ];
    for (const [method, path, sent, names] of cases) {
      const head = await logHead(app);
      const reply = await app.http(method, path, { body: sent });
      expect({ sent, status: reply.status }).toEqual({ sent, status: 400 });
      expect((reply.body as { error: { message: string } }).error.message).toMatch(names);
      expect(await logHead(app)).toBe(head);
    }
    expect((await app.api().orgs.getTranslation(org, existing.id)).data).toEqual(existing);
  });

  it('lets members read and only admins manage; another organization’s settings are not found', async () => {
    const app = current();
    const org = app.organizationId;
    const existing = await create('Guarded');
    const reader = await addUser(app, { organizationId: org, role: 'read' });
    const seen = (await app.api(reader.token).orgs.getTranslation(org, existing.id)).data as unknown;
    expect(seen).toMatchObject({ id: existing.id, permissions: { view: true, edit: false } });
    const asReader = { token: reader.token };
    const write = [
      await app.http('POST', `/v1/orgs/${org}/translations`, { ...asReader, body: { title: 'No' } }),
      await app.http('PUT', `/v1/orgs/${org}/translations/${existing.id}`, {
        ...asReader,
        body: { title: 'No' },
      }),
      await app.http('DELETE', `/v1/orgs/${org}/translations/${existing.id}`, asReader),
    ];
    expect(write.map((r) => r.status)).toEqual([403, 403, 403]);

    const outsider = await addUser(app);
    const hidden = await app.http('GET', `/v1/orgs/${org}/translations/${existing.id}`, {
      token: outsider.token,
    });
    expect(hidden.status).toBe(404);

    const elsewhere = await addOrganization(app, 'Elsewhere');
    const wrongOrg = await app.http('GET', `/v1/orgs/${elsewhere}/translations/${existing.id}`);
    expect(wrongOrg.status).toBe(404);
    const wrongPut = await app.http('PUT', `/v1/orgs/${elsewhere}/translations/${existing.id}`, {
      body: { title: 'Moved?' },
    });
    expect(wrongPut.status).toBe(404);
  });

  it('records each change in the audit log', async () => {
    const app = current();
    const org = app.organizationId;
    const audited = await create('Audited');
    await app.api().orgs.updateTranslation(org, audited.id, body({ title: 'Audited 2' }));
    await app.api().orgs.deleteTranslation(org, audited.id);
    const events = (await app.http('GET', `/v1/orgs/${org}/audit-events?limit=100`)).body as {
      items: { action: string; target?: { id: string } }[];
    };
    const actions = events.items.filter((e) => e.target?.id === audited.id).map((e) => e.action);
    expect(actions.sort()).toEqual([
      'translation_settings.created',
      'translation_settings.deleted',
      'translation_settings.updated',
    ]);
  });

  it("documents GitBook's operation names with the seeds' shape, not GitBook's Translation", async () => {
    const doc = (await current().http('GET', '/v1/openapi.json', { token: null })).body as {
      paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
    };
    const one = doc.paths['/v1/orgs/{organizationId}/translations/{translationId}'];
    const all = doc.paths['/v1/orgs/{organizationId}/translations'];
    expect([all.get, all.post, one.get, one.put, one.delete].map((op) => op.operationId)).toEqual([
      'listTranslations',
      'createTranslation',
      'getTranslation',
      'updateTranslation',
      'deleteTranslation',
    ]);
    expect(one.get.responses['200']).toEqual({ description: expect.stringMatching(/translation-settings/) });
    expect(all.post.responses['201']).toEqual({ description: expect.stringMatching(/translation-settings/) });
  });
});
