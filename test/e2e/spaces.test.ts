import { MemberRole, type Space, SpaceEditMode } from '@gitbook/api';
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
