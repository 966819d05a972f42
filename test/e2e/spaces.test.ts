import {
  MemberRole,
  type RevisionPageDocument,
  type Space,
  SpaceEditMode,
  TranslationLanguage,
} from '@gitbook/api';
import { addOrganization, addUser, useTestApp } from '../support/app-harness';

describe('spaces over HTTP', () => {
  const current = useTestApp();

  const create = async (body: Record<string, unknown> = {}) => {
    const app = current();
    const reply = await app.api().orgs.createSpace(app.organizationId, body);
    expect(reply.status).toBe(201);
    return reply.data as Space;
  };

  it('creates a space with counters at zero, and gets it (shareKey accepted)', async () => {
    const app = current();
    const org = app.organizationId;
    const space = await create({ title: 'API docs', emoji: '📘' });
    expect(space).toMatchObject({
      object: 'space',
      title: 'API docs',
      emoji: '📘',
      organization: org,
      visibility: 'private',
      editMode: 'live',
      comments: 0,
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
    });
    const { data } = await app.api().spaces.getSpaceById(space.id, { shareKey: 'any-key' });
    expect(data).toEqual(space);
  });

  it('lists an organization spaces in order', async () => {
    const app = current();
    const org = app.organizationId;
    const a = await create({ title: 'First' });
    const b = await create({ title: 'Second' });
    const { data } = await app.api().orgs.listSpacesInOrganizationById(org, { limit: 1000 });
    const ids = data.items.map((s) => s.id);
    expect(ids.indexOf(a.id)).toBeLessThan(ids.indexOf(b.id));
    expect(data.count).toBe(data.items.length);
  });

  it('updates editMode, title, defaultLevel and emoji; a GET after the response sees it', async () => {
    const app = current();
    const space = await create({ title: 'Draft' });
    const { data } = await app.api().spaces.updateSpaceById(space.id, {
      editMode: SpaceEditMode.Locked,
      title: 'Final',
      defaultLevel: MemberRole.Comment,
      emoji: '🚀',
    });
    expect(data).toMatchObject({ editMode: 'locked', title: 'Final', defaultLevel: 'comment', emoji: '🚀' });
    expect((await app.api().spaces.getSpaceById(space.id)).data).toEqual(data);
    const unlocked = await app.api().spaces.updateSpaceById(space.id, { editMode: SpaceEditMode.Live });
    expect(unlocked.data.editMode).toBe('live');
  });

  it('deletes (205), keeps the space restorable, and restores it', async () => {
    const app = current();
    const org = app.organizationId;
    const space = await create({ title: 'Trash me' });
    const deleted = await app.api().spaces.deleteSpaceById(space.id);
    expect(deleted.status).toBe(205);
    const seen = await app.api().spaces.getSpaceById(space.id);
    expect(seen.data.deletedAt).toEqual(expect.any(String));
    const listed = await app.api().orgs.listSpacesInOrganizationById(org, { limit: 1000 });
    expect(listed.data.items.map((s) => s.id)).not.toContain(space.id);
    const again = await app.http('DELETE', `/v1/spaces/${space.id}`);
    expect(again.status).toBe(204);
    const restored = await app.api().spaces.restoreSpace(space.id);
    expect(restored.data.deletedAt).toBeUndefined();
    const notDeleted = await app.http('POST', `/v1/spaces/${space.id}/restore`);
    expect(notDeleted.status).toBe(409);
  });

  it('duplicates a space (201) with the same settings and a new id and revision', async () => {
    const app = current();
    const org = app.organizationId;
    const space = await create({ title: 'Original', emoji: '🎉', editMode: 'locked' });
    const copy = await app.api().spaces.duplicateSpace(space.id);
    expect(copy.status).toBe(201);
    expect(copy.data).toMatchObject({
      title: 'Original',
      emoji: '🎉',
      editMode: 'locked',
      organization: org,
    });
    expect(copy.data.id).not.toBe(space.id);
    expect(copy.data.revision).not.toBe(space.revision);
  });

  it('starts a duplicate with the content of its source as it is now: pages, documents, files, links, search', async () => {
    const app = current();
    const spaces = app.api().spaces;
    const source = await create({ title: 'Manuel', language: TranslationLanguage.Fr });
    const cr = (await spaces.createChangeRequest(source.id, { subject: 'Pages' })).data;
    const written = await app.http(
      'POST',
      `/v1/spaces/${source.id}/change-requests/${cr.id}/content?compat=false`,
      {
        body: {
          changes: [
            {
              operation: 'insert_files',
              files: [{ name: 'logo.png', url: 'https://example.com/logo.png', ref: 'logo' }],
            },
            {
              operation: 'insert_page',
              title: 'Écurie',
              slug: 'ecurie',
              ref: 'stable',
              document: { markdown: 'Les chevaux lisent les journaux.\n\n![Logo](./logo)\n' },
            },
            {
              operation: 'insert_page',
              title: 'Guide',
              slug: 'guide',
              document: { markdown: "Voir [l'écurie](./stable.md).\n" },
            },
          ],
        },
      },
    );
    expect(written.status).toBe(200);
    const { changes, insertedFiles } = written.body as {
      changes: { page: { id: string } }[];
      insertedFiles: { id: string }[];
    };
    const [stable, guide] = changes.map((c) => c.page.id);
    expect((await spaces.mergeChangeRequest(source.id, cr.id)).data.result).toBe('merge');

    const copy = (await spaces.duplicateSpace(source.id)).data;
    expect(copy).toMatchObject({ title: 'Manuel', language: 'fr' });
    expect(copy.revision).not.toBe((await spaces.getSpaceById(source.id)).data.revision);
    const pages = (await spaces.listPages(copy.id)).data.pages as RevisionPageDocument[];
    expect(pages.map((p) => [p.id, p.title, p.path])).toEqual([
      [stable, 'Écurie', 'ecurie'],
      [guide, 'Guide', 'guide'],
    ]);
    const document = await spaces.getPageDocumentInRevisionById(copy.id, copy.revision, stable);
    expect(JSON.stringify(document.data)).toContain('Les chevaux lisent les journaux.');
    const page = await spaces.getPageById(copy.id, stable, { format: 'markdown' });
    expect((page.data as { markdown: string }).markdown).toContain('Les chevaux lisent les journaux.');
    const files = (await spaces.listFiles(copy.id)).data.items;
    expect(files.map((f) => f.id)).toEqual([insertedFiles[0].id]);
    const revision = (await spaces.getRevisionById(copy.id, copy.revision)).data;
    expect(revision).toMatchObject({ id: copy.revision, parents: [] });

    // Searched in its language, as its source.
    const found = (await spaces.searchSpaceContent(copy.id, { query: 'cheval' })).data;
    expect(found.items.map((r) => r.id)).toEqual([stable]);
    const links = await app.http('GET', `/v1/spaces/${copy.id}/links`);
    expect(links.status).toBe(200);
    expect((links.body as { stats: { broken: { total: number } } }).stats.broken.total).toBe(0);

    // Each goes on from there on its own: a change request of the copy starts from the copied content.
    const edit = (await spaces.createChangeRequest(copy.id, { subject: 'Copy only' })).data;
    expect(edit.revisionInitial).toBe(copy.revision);
    const deleted = await app.http(
      'POST',
      `/v1/spaces/${copy.id}/change-requests/${edit.id}/content?compat=false`,
      { body: { changes: [{ operation: 'delete_page', page: guide }] } },
    );
    expect(deleted.status).toBe(200);
    expect((await spaces.mergeChangeRequest(copy.id, edit.id)).data.result).toBe('merge');
    expect((await spaces.listPages(copy.id)).data.pages.map((p) => p.id)).toEqual([stable]);
    expect((await spaces.listPages(source.id)).data.pages.map((p) => p.id)).toEqual([stable, guide]);
  });

  it('sets a language (absent until then); one GitBook does not list is a 400 naming it', async () => {
    const app = current();
    const org = app.organizationId;
    const space = await create({ title: 'Polyglot' });
    expect(space).not.toHaveProperty('language');
    const { data } = await app.api().spaces.updateSpaceById(space.id, { language: TranslationLanguage.PtBr });
    expect(data.language).toBe('pt-br');
    expect((await app.api().spaces.getSpaceById(space.id)).data).toEqual(data);
    expect((await create({ title: 'Japanese', language: TranslationLanguage.Ja })).language).toBe('ja');
    for (const [method, path] of [
      ['PATCH', `/v1/spaces/${space.id}`],
      ['POST', `/v1/orgs/${org}/spaces`],
    ] as const) {
      for (const language of ['EN', 'xx', '', 7]) {
        const reply = await app.http(method, path, { body: { language } });
        expect({ language, status: reply.status }).toEqual({ language, status: 400 });
        expect((reply.body as { error: { message: string } }).error.message).toContain('language');
      }
    }
  });

  it('sets an icon (answered as urls.icon) in place of the emoji, and back; a duplicate keeps it', async () => {
    const app = current();
    const space = await create({ title: 'Iconic', emoji: '📘' });
    expect(space.urls).not.toHaveProperty('icon');
    const icon = 'https://example.com/icons/book.png';
    const { data } = await app.api().spaces.updateSpaceById(space.id, { icon });
    expect(data.urls.icon).toBe(icon);
    expect(data.emoji).toBe('');
    expect((await app.api().spaces.getSpaceById(space.id)).data).toEqual(data);
    const copy = await app.api().spaces.duplicateSpace(space.id);
    expect(copy.data.urls.icon).toBe(icon);
    const emoji = await app.api().spaces.updateSpaceById(space.id, { emoji: '🚀' });
    expect(emoji.data.emoji).toBe('🚀');
    expect(emoji.data.urls).not.toHaveProperty('icon');
    await app.api().spaces.updateSpaceById(space.id, { icon });
    const none = await app.api().spaces.updateSpaceById(space.id, { emoji: null, icon: null });
    expect(none.data).toMatchObject({ emoji: '' });
    expect(none.data.urls).not.toHaveProperty('icon');
    for (const body of [
      { icon: 'book' },
      { icon: 'ftp://example.com/i.png' },
      { icon: `https://example.com/${'x'.repeat(2048)}` },
      { icon: 7 },
      { icon, emoji: '📘' },
    ]) {
      const reply = await app.http('PATCH', `/v1/spaces/${space.id}`, { body });
      expect({ body, status: reply.status }).toEqual({ body, status: 400 });
      expect((reply.body as { error: { message: string } }).error.message).toMatch(/^(emoji and )?icon/);
    }
  });

  it('enforces the merge rules without users: a subject, only the author, approvals alone', async () => {
    const app = current();
    const space = await create({ title: 'Ruled' });
    const { data } = await app.api().spaces.updateSpaceById(space.id, {
      mergeRules: {
        type: 'rules',
        rules: [
          { rule: 'require_change_request_subject' },
          { rule: 'require_author_to_merge' },
          { rule: 'require_all_reviews_approved' },
        ],
      },
    } as never);
    expect(data.mergeRules).toMatchObject({ type: 'rules' });
    const cr = (await app.api().spaces.createChangeRequest(space.id, {})).data;
    const merge = `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`;
    const untitled = await app.http('POST', merge);
    expect(untitled.status).toBe(409);
    expect((untitled.body as { error: { message: string } }).error.message).toMatch(/subject/);
    await app.api().spaces.updateChangeRequestById(space.id, cr.id, { subject: 'Titled' });
    const other = await addUser(app, { organizationId: app.organizationId, role: 'admin' });
    const notAuthor = await app.http('POST', merge, { token: other.token });
    expect(notAuthor.status).toBe(409);
    expect((notAuthor.body as { error: { message: string } }).error.message).toMatch(/author/);
    expect((await app.api().spaces.mergeChangeRequest(space.id, cr.id)).data.result).toBe('merge');
    for (const rule of ['require_agent_review', 'custom']) {
      const reply = await app.http('PATCH', `/v1/spaces/${space.id}`, {
        body: { mergeRules: { type: 'rules', rules: [{ rule, expression: 'true' }] } },
      });
      expect({ rule, status: reply.status }).toEqual({ rule, status: 400 });
      expect((reply.body as { error: { message: string } }).error.message).toMatch(
        /^mergeRules\.rules\[0\]\.rule/,
      );
    }
  });

  it('enforces a description and an up-to-date change request when the rules ask for them', async () => {
    const app = current();
    const api = app.api();
    const space = await create({ title: 'Described' });
    await api.spaces.updateSpaceById(space.id, {
      mergeRules: {
        type: 'rules',
        rules: [
          { rule: 'require_change_request_description' },
          { rule: 'require_up_to_date_change_request' },
        ],
      },
    } as never);
    const message = (reply: { body: unknown }) =>
      (reply.body as { error: { message: string } }).error.message;
    const merge = (cr: string) => app.http('POST', `/v1/spaces/${space.id}/change-requests/${cr}/merge`);
    const first = (await api.spaces.createChangeRequest(space.id, { subject: 'First' })).data;
    const second = (await api.spaces.createChangeRequest(space.id, { subject: 'Second' })).data;
    const describe = (cr: string, text: string) =>
      api.spaces.updateChangeRequestById(space.id, cr, {
        description: {
          object: 'document',
          data: {},
          nodes: [
            {
              object: 'block',
              type: 'paragraph',
              nodes: [{ object: 'text', leaves: [{ object: 'leaf', text }] }],
            },
          ],
        },
      } as never);

    const undescribed = await merge(first.id);
    expect([undescribed.status, message(undescribed)]).toEqual([409, expect.stringMatching(/description/)]);
    await describe(first.id, '   ');
    expect((await merge(first.id)).status).toBe(409);
    await describe(first.id, 'Why this change');
    expect((await merge(first.id)).status).toBe(200);

    // The space moved on: the second is behind until updated from it.
    await describe(second.id, 'Another change');
    const behind = await merge(second.id);
    expect([behind.status, message(behind)]).toEqual([409, expect.stringMatching(/behind/)]);
    const updated = await app.http('POST', `/v1/spaces/${space.id}/change-requests/${second.id}/update`);
    expect(updated.status).toBe(200);
    expect((await merge(second.id)).status).toBe(200);
  });

  it('refuses a template or a computed source on creation with a 400 naming it, and creates nothing', async () => {
    const app = current();
    const org = app.organizationId;
    const before = (await app.api().orgs.listSpacesInOrganizationById(org, { limit: 1000 })).data.count;
    for (const [field, value] of [
      ['template', { id: 'product-docs' }],
      ['template', null],
      [
        'computedSource',
        { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: 'petstore' } } } },
      ],
    ] as const) {
      const reply = await app.http('POST', `/v1/orgs/${org}/spaces`, {
        body: { title: 'Templated', [field]: value },
      });
      expect({ field, status: reply.status }).toEqual({ field, status: 400 });
      expect((reply.body as { error: { message: string } }).error.message).toMatch(
        new RegExp(`^${field} is not accepted: `),
      );
    }
    expect((await app.api().orgs.listSpacesInOrganizationById(org, { limit: 1000 })).data.count).toBe(before);
  });

  it('moves a space into a collection, before a sibling, and back to the top level', async () => {
    const app = current();
    const org = app.organizationId;
    const collection = (await app.api().orgs.createCollection(org, { title: 'Box' })).data;
    const first = await create({ title: 'one', parent: collection.id });
    const moving = await create({ title: 'two' });
    const moved = await app.api().spaces.moveSpace(moving.id, {
      parent: collection.id,
      position: { before: { type: 'space', space: first.id } },
    });
    expect(moved.data.parent).toBe(collection.id);
    const inside = await app.api().collections.listSpacesInCollectionById(collection.id);
    expect(inside.data.items.map((s) => s.id)).toEqual([moving.id, first.id]);
    const out = await app.api().spaces.moveSpace(moving.id, { parent: null });
    expect(out.data.parent).toBeUndefined();
    expect(out.data.visibility).toBe('private');
    const badAnchor = await app.http('POST', `/v1/spaces/${moving.id}/move`, {
      body: { position: { after: { type: 'space', space: first.id } } },
    });
    expect(badAnchor.status).toBe(400);
  });

  it('transfers a space to another organization the caller administers', async () => {
    const app = current();
    const other = await addOrganization(app, 'Destination');
    const space = await create({ title: 'Travelling' });
    const reply = await app.http('POST', `/v1/spaces/${space.id}/transfer`, {
      body: { organization: other },
    });
    expect(reply.status).toBe(200);
    expect((reply.body as Space).organization).toBe(other);
    const listed = await app.api().orgs.listSpacesInOrganizationById(other);
    expect(listed.data.items.map((s) => s.id)).toContain(space.id);
  });

  it('refuses a transfer into an organization the caller does not administer', async () => {
    const app = current();
    const org = app.organizationId;
    const member = await addUser(app, { organizationId: org, role: 'admin' });
    const foreign = await addOrganization(app, 'Not theirs');
    const space = await create({ title: 'Stays' });
    const reply = await app.http('POST', `/v1/spaces/${space.id}/transfer`, {
      token: member.token,
      body: { organization: foreign },
    });
    expect(reply.status).toBe(404);
    expect((await app.api().spaces.getSpaceById(space.id)).data.organization).toBe(org);
  });

  it('computes permissions from the role and enforces them', async () => {
    const app = current();
    const org = app.organizationId;
    const space = await create({ title: 'Guarded' });
    const commenter = await addUser(app, { organizationId: org, role: 'comment' });
    const seen = (await app.api(commenter.token).spaces.getSpaceById(space.id)).data;
    expect(seen.permissions).toMatchObject({
      view: true,
      comment: true,
      edit: false,
      admin: false,
      merge: false,
    });
    const patch = await app.http('PATCH', `/v1/spaces/${space.id}`, {
      token: commenter.token,
      body: { title: 'x' },
    });
    expect(patch.status).toBe(403);
    const creator = await addUser(app, { organizationId: org, role: 'create' });
    const del = await app.http('DELETE', `/v1/spaces/${space.id}`, { token: creator.token });
    expect(del.status).toBe(403);
    expect((await app.api().spaces.getSpaceById(space.id)).data.deletedAt).toBeUndefined();
  });
});
