import { openReadStore } from '@app/composition/storage';
import { OrganizationService } from '@app/organizations/write/organization.commands';
import { CONTENT_ACCESS } from '@app/platform/auth/auth-views';
import { type Collection, MemberRole, type Space } from '@gitbook/api';
import {
  addOrganization,
  addUser,
  removeDir,
  SETUP,
  setupOf,
  startTestApp,
  type TestApp,
  useTestApp,
} from '../support/app-harness';

describe('space and collection permissions over HTTP', () => {
  const current = useTestApp();

  const collection = async (app: TestApp, title: string, parent?: string) =>
    (await app.api().orgs.createCollection(app.organizationId, { title, ...(parent ? { parent } : {}) }))
      .data as Collection;
  const space = async (app: TestApp, parent?: string) =>
    (await app.api().orgs.createSpace(app.organizationId, { title: 'Shared', ...(parent ? { parent } : {}) }))
      .data as Space;
  /** A member made a guest: no role in the organization, so only what is shared with them. */
  const guest = async (app: TestApp) => {
    const user = await addUser(app, { organizationId: app.organizationId, role: 'read' });
    await app.api().orgs.updateMemberInOrganizationById(app.organizationId, user.userId, { role: null });
    return user;
  };
  const team = async (app: TestApp, members: string[]) =>
    (await app.api().orgs.createOrganizationTeam(app.organizationId, { title: 'Readers', members })).data.id;
  const status = async (app: TestApp, path: string, token: string) =>
    (await app.http('GET', path, { token })).status;

  it('a team grant three collections up reaches a guest, with the permissions of its role, until revoked', async () => {
    const app = current();
    const top = await collection(app, 'Top');
    const middle = await collection(app, 'Middle', top.id);
    const bottom = await collection(app, 'Bottom', middle.id);
    const shared = await space(app, bottom.id);
    const other = await space(app);
    const g = await guest(app);
    const teamId = await team(app, [g.userId]);

    expect(await status(app, `/v1/spaces/${shared.id}`, g.token)).toBe(404);
    const invite = await app
      .api()
      .collections.inviteToCollection(top.id, { role: MemberRole.Read, teams: [teamId] });
    expect(invite.status).toBe(204);

    const seen = await app.api(g.token).spaces.getSpaceById(shared.id);
    expect(seen.data.permissions).toMatchObject({ view: true, edit: false, comment: false, admin: false });
    expect(await status(app, `/v1/collections/${middle.id}`, g.token)).toBe(200);
    // Lists show the guest what it can reach and nothing else.
    const listed = await app
      .api(g.token)
      .orgs.listSpacesInOrganizationById(app.organizationId, { limit: 1000 });
    expect(listed.data.items.map((s) => s.id)).toEqual([shared.id]);
    expect(listed.data.count).toBe(1);
    expect(await status(app, `/v1/spaces/${other.id}`, g.token)).toBe(404);
    // Writing needs more than `read`.
    const write = await app.http('PATCH', `/v1/spaces/${shared.id}`, {
      token: g.token,
      body: { title: 'No' },
    });
    expect(write.status).toBe(403);

    const teams = await app.api().collections.listTeamPermissionsInCollection(top.id);
    expect(teams.data.items.map((t) => [t.team.id, t.permission])).toEqual([[teamId, 'read']]);
    const reach = await app.api().spaces.listPermissionsAggregateInSpace(shared.id, { limit: 1000 });
    expect(reach.data.items.find((p) => p.user.id === g.userId)?.permission).toBe('read');
    expect(reach.data.items.find((p) => p.user.id === app.userId)?.permission).toBe('admin');
    const readers = await app
      .api()
      .spaces.listPermissionsAggregateInSpace(shared.id, { role: MemberRole.Read });
    expect(readers.data.items.map((p) => p.user.id)).toContain(g.userId);
    expect(readers.data.items.map((p) => p.user.id)).not.toContain(app.userId);

    const removed = await app.http('DELETE', `/v1/collections/${top.id}/permissions/teams/${teamId}`);
    expect(removed.status).toBe(205);
    expect(await status(app, `/v1/spaces/${shared.id}`, g.token)).toBe(404);
    const again = await app.http('DELETE', `/v1/collections/${top.id}/permissions/teams/${teamId}`);
    expect(again.status).toBe(204);
  });

  it("a guest lists the organization's change requests of the spaces shared with them, and no others", async () => {
    const app = current();
    const [shared, closed] = [await space(app), await space(app)];
    const g = await guest(app);
    const orgList = (token?: string, query = '') =>
      app.http(
        'GET',
        `/v1/orgs/${app.organizationId}/change-requests?limit=100${query}`,
        token ? { token } : {},
      );
    const listed = async (token?: string, query = '') =>
      ((await orgList(token, query)).body as { items: { space: string }[] }).items.map((c) => c.space);
    expect((await orgList(g.token)).status).toBe(200);
    expect(await listed(g.token)).toEqual([]);
    for (const target of [shared, closed])
      await app.api().spaces.createChangeRequest(target.id, { subject: `In ${target.id}` });
    await app.api().spaces.inviteToSpace(shared.id, { role: MemberRole.Read, users: [g.userId] });
    expect(await listed(g.token)).toEqual([shared.id]);
    expect(await listed(g.token, `&space=${closed.id}`)).toEqual([]);
    expect(await listed()).toEqual(expect.arrayContaining([shared.id, closed.id]));
  });

  it('direct user grants: invite, change, list and remove; the strongest grant wins', async () => {
    const app = current();
    const shared = await space(app);
    const g = await guest(app);
    const teamId = await team(app, [g.userId]);
    await app.api().spaces.inviteToSpace(shared.id, { role: MemberRole.Read, teams: [teamId] });
    await app.api().spaces.inviteToSpace(shared.id, { role: MemberRole.Edit, users: [g.userId] });

    const as = async () => (await app.api(g.token).spaces.getSpaceById(shared.id)).data.permissions;
    expect(await as()).toMatchObject({ edit: true, review: false });
    const users = await app.api().spaces.listUserPermissionsInSpace(shared.id);
    expect(users.data.items.map((p) => [p.user.id, p.permission])).toEqual([[g.userId, 'edit']]);

    const changed = await app.api().spaces.updateUserPermissionInSpace(shared.id, g.userId, {
      role: MemberRole.Review,
    });
    expect(changed.status).toBe(204);
    expect(await as()).toMatchObject({ edit: true, review: true, merge: true });
    const teamReply = await app
      .api()
      .spaces.updateTeamPermissionInSpace(shared.id, teamId, { role: MemberRole.Comment });
    expect(teamReply.status).toBe(204);
    const listedTeam = (await app.api().spaces.listTeamPermissionsInSpace(shared.id)).data.items[0];
    expect([listedTeam.permission, listedTeam.team.spaces]).toEqual(['comment', 1]);

    expect((await app.http('DELETE', `/v1/spaces/${shared.id}/permissions/users/${g.userId}`)).status).toBe(
      205,
    );
    // The team's grant remains.
    expect(await as()).toMatchObject({ comment: true, edit: false });
    expect((await app.http('DELETE', `/v1/spaces/${shared.id}/permissions/users/${g.userId}`)).status).toBe(
      204,
    );
    // A null role takes a grant away too.
    await app.api().spaces.updateTeamPermissionInSpace(shared.id, teamId, { role: null });
    expect(await status(app, `/v1/spaces/${shared.id}`, g.token)).toBe(404);
    expect((await app.api().spaces.listTeamPermissionsInSpace(shared.id)).data.count).toBe(0);
  });

  it('default levels: inherited down the tree, null closes content to members, admins always reach it', async () => {
    const app = current();
    const org = app.organizationId;
    const reader = await addUser(app, { organizationId: org, role: 'read' });
    const parent = await collection(app, 'Open for editing');
    const inside = await space(app, parent.id);
    await app.api().collections.updateCollectionById(parent.id, { defaultLevel: MemberRole.Edit });
    expect((await app.api(reader.token).spaces.getSpaceById(inside.id)).data.permissions.edit).toBe(true);

    const reached = async () =>
      (await app.api().orgs.getMemberInOrganizationById(org, reader.userId)).data.spaces;
    const before = await reached();
    await app.api().spaces.updateSpaceById(inside.id, { defaultLevel: null });
    expect(await status(app, `/v1/spaces/${inside.id}`, reader.token)).toBe(404);
    // A member's `spaces` counts what they reach.
    expect(await reached()).toBe(before - 1);
    expect(await status(app, `/v1/spaces/${inside.id}`, app.token)).toBe(200);
    const listed = await app.api(reader.token).collections.listSpacesInCollectionById(parent.id);
    expect(listed.data.items).toEqual([]);
    // A grant opens it to that member again.
    await app.api().spaces.inviteToSpace(inside.id, { role: MemberRole.Comment, users: [reader.userId] });
    const seen = await app.api(reader.token).spaces.getSpaceById(inside.id);
    expect(seen.data.permissions).toMatchObject({ comment: true, edit: false });
    expect(await reached()).toBe(before);
  });

  it('moving a space out of a shared collection takes the inherited access away', async () => {
    const app = current();
    const shared = await collection(app, 'Shared');
    const inside = await space(app, shared.id);
    const g = await guest(app);
    await app.api().collections.inviteToCollection(shared.id, { role: MemberRole.Read, users: [g.userId] });
    expect(await status(app, `/v1/spaces/${inside.id}`, g.token)).toBe(200);
    await app.api().spaces.moveSpace(inside.id, { parent: null });
    expect(await status(app, `/v1/spaces/${inside.id}`, g.token)).toBe(404);
    const users = await app.api().collections.listUserPermissionsInCollection(shared.id);
    expect(users.data.items.map((p) => p.user.id)).toEqual([g.userId]);
  });

  it('a member who leaves the organization loses their grants', async () => {
    const app = current();
    const shared = await space(app);
    const user = await guest(app);
    await app.api().spaces.inviteToSpace(shared.id, { role: MemberRole.Edit, users: [user.userId] });
    await app.api().orgs.removeMemberFromOrganizationById(app.organizationId, user.userId);
    expect((await app.api().spaces.listUserPermissionsInSpace(shared.id)).data.count).toBe(0);
  });

  it('refuses bad input naming the field, unknown grantees with 404, and grants above the granter', async () => {
    const app = current();
    const shared = await space(app);
    const path = `/v1/spaces/${shared.id}/permissions`;
    const g = await guest(app);
    const cases: [unknown, number, RegExp][] = [
      [{ role: 'owner', users: [g.userId] }, 400, /role/],
      [{ users: [g.userId] }, 400, /role/],
      [{ role: 'read' }, 400, /users or teams/],
      [{ role: 'read', users: [] }, 400, /users/],
      [{ role: 'read', users: 'x' }, 400, /users/],
      [{ role: 'read', users: [g.userId], extra: 1 }, 400, /extra/],
      [{ role: 'read', users: ['unknownuser0000000000'] }, 404, /unknownuser/],
      [{ role: 'read', teams: ['unknownteam0000000000'] }, 404, /unknownteam/],
    ];
    for (const [body, code, field] of cases) {
      const reply = await app.http('POST', path, { body });
      expect([reply.status, JSON.stringify(reply.body)]).toEqual([code, expect.stringMatching(field)]);
    }
    expect((await app.api().spaces.listUserPermissionsInSpace(shared.id)).data.count).toBe(0);

    // `create` manages a space's access, but cannot hand out more than it has.
    const creator = await addUser(app, { organizationId: app.organizationId, role: 'create' });
    const denied = await app.http('POST', path, {
      token: creator.token,
      body: { role: 'admin', users: [g.userId] },
    });
    expect(denied.status).toBe(403);
    const allowed = await app.http('POST', path, {
      token: creator.token,
      body: { role: 'create', users: [g.userId] },
    });
    expect(allowed.status).toBe(204);
    const reader = await addUser(app, { organizationId: app.organizationId, role: 'edit' });
    expect((await app.http('GET', `${path}/users`, { token: reader.token })).status).toBe(403);
  });

  it('nobody opens a default level wider than their own role there', async () => {
    const app = current();
    const org = app.organizationId;
    const shared = await space(app);
    const creator = await addUser(app, { organizationId: org, role: 'create' });
    const reader = await addUser(app, { organizationId: org, role: 'read' });
    const patch = (id: string, defaultLevel: unknown, token?: string) =>
      app.http('PATCH', `/v1/spaces/${id}`, { ...(token ? { token } : {}), body: { defaultLevel } });
    // `create` cannot grant admin, so it cannot make every member admin either.
    const raised = await patch(shared.id, 'admin', creator.token);
    expect([raised.status, JSON.stringify(raised.body)]).toEqual([403, expect.stringMatching(/admin/)]);
    expect((await app.api().spaces.getSpaceById(shared.id)).data.defaultLevel).toBe('inherit');
    expect((await app.api(reader.token).spaces.getSpaceById(shared.id)).data.permissions.admin).toBe(false);
    expect((await app.http('DELETE', `/v1/spaces/${shared.id}`, { token: reader.token })).status).toBe(403);
    // What it may grant, it may open to every member.
    expect((await patch(shared.id, 'create', creator.token)).status).toBe(200);
    expect((await app.api(reader.token).spaces.getSpaceById(shared.id)).data.permissions.admin).toBe(true);

    // A guest holding `create` on a space by a grant is held to the same rule.
    const g = await guest(app);
    const other = await space(app);
    await app.api().spaces.inviteToSpace(other.id, { role: MemberRole.Create, users: [g.userId] });
    expect((await patch(other.id, 'admin', g.token)).status).toBe(403);
    expect((await app.http('DELETE', `/v1/spaces/${other.id}`, { token: reader.token })).status).toBe(403);
    // `inherit` at the top opens the space with each member's own role, up to `create`: the guest may.
    expect((await patch(other.id, null, g.token)).status).toBe(200);
    expect((await patch(other.id, 'inherit', g.token)).status).toBe(200);
    // Below a collection open as admin, `inherit` would make every member admin: not theirs to give.
    const open = await collection(app, 'Open as admin');
    await app.api().collections.updateCollectionById(open.id, { defaultLevel: MemberRole.Admin });
    const below = await space(app, open.id);
    await app.api().spaces.updateSpaceById(below.id, { defaultLevel: null });
    await app.api().spaces.inviteToSpace(below.id, { role: MemberRole.Create, users: [g.userId] });
    expect((await patch(below.id, 'inherit', g.token)).status).toBe(403);
    expect(await status(app, `/v1/spaces/${below.id}`, reader.token)).toBe(404);
    // An organization admin may open a space as wide as they like.
    expect((await patch(other.id, 'admin')).status).toBe(200);
    expect((await app.api(reader.token).spaces.getSpaceById(other.id)).data.permissions.admin).toBe(true);
  });

  it('a move that opens content to more members, or with a stronger role, needs admin where it lands', async () => {
    const app = current();
    const org = app.organizationId;
    const closed = await collection(app, 'Closed');
    await app.api().collections.updateCollectionById(closed.id, { defaultLevel: null });
    const inside = await space(app, closed.id);
    const sub = await collection(app, 'Sub', closed.id);
    const creator = await addUser(app, { organizationId: org, role: 'create' });
    await app.api().collections.inviteToCollection(closed.id, {
      role: MemberRole.Admin,
      users: [creator.userId],
    });
    const reader = await addUser(app, { organizationId: org, role: 'read' });
    expect(await status(app, `/v1/spaces/${inside.id}`, reader.token)).toBe(404);

    const move = (kind: string, id: string, parent: string | null, token?: string) =>
      app.http('POST', `/v1/${kind}/${id}/move`, { ...(token ? { token } : {}), body: { parent } });
    const toTop = await move('spaces', inside.id, null, creator.token);
    expect([toTop.status, JSON.stringify(toTop.body)]).toEqual([403, expect.stringMatching(/admin/)]);
    expect(await status(app, `/v1/spaces/${inside.id}`, reader.token)).toBe(404);
    expect((await move('collections', sub.id, null, creator.token)).status).toBe(403);
    expect(await status(app, `/v1/collections/${sub.id}`, reader.token)).toBe(404);

    // Where it is no more open, the mover needs no more than `create` there.
    const closedToo = await collection(app, 'Closed too');
    await app.api().collections.updateCollectionById(closedToo.id, { defaultLevel: null });
    await app.api().collections.inviteToCollection(closedToo.id, {
      role: MemberRole.Admin,
      users: [creator.userId],
    });
    expect((await move('spaces', inside.id, closedToo.id, creator.token)).status).toBe(200);
    expect(await status(app, `/v1/spaces/${inside.id}`, reader.token)).toBe(404);
    // Its own default level closed, the space may go anywhere the mover may add content (granted on the
    // space itself, the mover keeps it there).
    await app.api().spaces.updateSpaceById(inside.id, { defaultLevel: null });
    await app.api().spaces.inviteToSpace(inside.id, { role: MemberRole.Create, users: [creator.userId] });
    expect((await move('spaces', inside.id, null, creator.token)).status).toBe(200);
    expect(await status(app, `/v1/spaces/${inside.id}`, reader.token)).toBe(404);

    // An organization admin may open content by moving it.
    expect((await move('collections', sub.id, null)).status).toBe(200);
    expect(await status(app, `/v1/collections/${sub.id}`, reader.token)).toBe(200);
  });

  it("content leaves its organization only with that organization's admin", async () => {
    const app = current();
    const org = app.organizationId;
    const g = await guest(app);
    const member = await addUser(app, { organizationId: org, role: 'create' });
    // Both administer an organization of their own.
    const elsewhere = await addOrganization(app, 'Elsewhere');
    const orgs = setupOf(app).services.get(OrganizationService);
    for (const user of [g, member]) {
      const { position } = await orgs.addMember(elsewhere, user.userId, 'admin', SETUP);
      await setupOf(app).waitFor(position);
    }
    const shared = await space(app);
    const folder = await collection(app, 'Folder');
    const within = await space(app, folder.id);
    for (const user of [g, member]) {
      await app.api().spaces.inviteToSpace(shared.id, { role: MemberRole.Admin, users: [user.userId] });
      await app.api().collections.inviteToCollection(folder.id, {
        role: MemberRole.Admin,
        users: [user.userId],
      });
      const body = { organization: elsewhere };
      const space = await app.http('POST', `/v1/spaces/${shared.id}/transfer`, { token: user.token, body });
      expect([space.status, JSON.stringify(space.body)]).toEqual([403, expect.stringMatching(/admin/)]);
      const moved = await app.http('POST', `/v1/collections/${folder.id}/transfer`, {
        token: user.token,
        body,
      });
      expect(moved.status).toBe(403);
    }
    for (const id of [shared.id, within.id]) {
      const seen = await app.api().spaces.getSpaceById(id);
      expect(seen.data.organization).toBe(org);
    }
    expect((await app.api().collections.getCollectionById(folder.id)).data.organization).toBe(org);
  });
});

describe('access views on an install from before the permission model', () => {
  it('are built from the log at start-up, so content stays reachable after an upgrade', async () => {
    let app = await startTestApp();
    const dataDir = app.dataDir;
    try {
      const shared = (await app.api().orgs.createSpace(app.organizationId, { title: 'Old' })).data;
      const user = await addUser(app, { organizationId: app.organizationId, role: 'read' });
      await app.api().orgs.updateMemberInOrganizationById(app.organizationId, user.userId, { role: null });
      await app.api().spaces.inviteToSpace(shared.id, { role: MemberRole.Edit, users: [user.userId] });
      await app.close();
      // What an older version left behind: every view but the access documents.
      const views = await openReadStore(app.storage);
      const stale = await views.all(CONTENT_ACCESS);
      expect(stale.length).toBeGreaterThan(0);
      await views.commit(stale.map((doc) => ({ collection: CONTENT_ACCESS, id: doc.id, doc: null })));
      await views.close();

      app = await startTestApp({ dataDir, clock: app.clock });
      expect((await app.api().spaces.getSpaceById(shared.id)).data.id).toBe(shared.id);
      const seen = await app.api(user.token).spaces.getSpaceById(shared.id);
      expect(seen.data.permissions.edit).toBe(true);
    } finally {
      await app.close();
      removeDir(dataDir);
    }
  });
});
