import { randomUUID } from 'node:crypto';
import { IdentityService } from '@app/identity/write/identity.commands';
import { OrganizationService } from '@app/organizations/write/organization.commands';
import type { Role } from '@app/platform/domain/roles';
import { type InviteLinkToOrganization, MemberRole } from '@gitbook/api';
import { addOrganization, addUser, eventually, SETUP, setupOf, useTestApp } from '../support/app-harness';

describe('organization invites over HTTP', () => {
  const current = useTestApp();

  const createLink = async (role: MemberRole | null, org = current().organizationId) => {
    const reply = await current().api().orgs.createOrganizationInvite(org, { role });
    expect(reply.status).toBe(201);
    return reply.data as InviteLinkToOrganization;
  };
  const links = async (org = current().organizationId) =>
    (await current().api().orgs.listOrganizationInviteLinks(org, { limit: 1000 })).data;
  /** What the user's token shows of the organization: 404 for a stranger, its permissions for a member. */
  const seenBy = async (token: string, org = current().organizationId) => {
    const reply = await current().http('GET', `/v1/orgs/${org}`, { token });
    return {
      status: reply.status,
      permissions: (reply.body as { permissions?: Record<string, boolean> }).permissions,
    };
  };
  /** A user with that email and a token, a member with `role` when given. */
  const userWithEmail = async (email: string, role?: Role) => {
    const setup = setupOf(current());
    const identity = setup.services.get(IdentityService);
    const { userId } = await identity.createUser({ displayName: 'Invitee', email }, SETUP);
    const issued = await identity.issueToken(userId, 'test', SETUP);
    let position = issued.position;
    if (role) {
      const orgs = setup.services.get(OrganizationService);
      ({ position } = await orgs.addMember(current().organizationId, userId, role, SETUP));
    }
    await setup.waitFor(position);
    return { userId, token: issued.token, email };
  };
  /** The ids of the organization's guests. */
  const members =
    (org = current().organizationId) =>
    async () =>
      (
        await current()
          .api()
          .orgs.listMembersInOrganizationById(org, { role: 'guest' as never, limit: 1000 })
      ).data.items.map((m) => m.id);
  const join = (token: string, inviteId: string, org = current().organizationId) =>
    current().http('POST', `/v1/orgs/${org}/invites/${inviteId}`, { token });

  it("creates a link with an unguessable id, in GitBook's shape, then gets, lists and updates it", async () => {
    const app = current();
    const org = app.organizationId;
    const created = await createLink(MemberRole.Edit);
    expect(created).toEqual({
      object: 'invite',
      id: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      role: 'edit',
      redundant: true,
    });
    const got = (await app.api().orgs.getOrganizationInviteLink(org, created.id)).data;
    expect(got).toEqual(created);
    const listed = await links();
    expect(listed.items).toContainEqual(created);
    const updated = (
      await app.api().orgs.updateOrganizationInviteById(org, created.id, { role: MemberRole.Create })
    ).data;
    expect(updated).toEqual({ ...created, role: 'create' });
    expect((await app.api().orgs.getOrganizationInviteLink(org, created.id)).data).toEqual(updated);
    // Only admins see links: the id is what opens one.
    const reader = await addUser(app, { organizationId: org, role: 'edit' });
    expect(
      (await app.http('GET', `/v1/orgs/${org}/link-invites/${created.id}`, { token: reader.token })).status,
    ).toBe(403);
  });

  it('lets a second user join with the invite id, with the link role, and read the organization', async () => {
    const app = current();
    const link = await createLink(MemberRole.Read);
    const joiner = await addUser(app);
    expect((await seenBy(joiner.token)).status).toBe(404);
    const joined = await app.api(joiner.token).orgs.joinOrganizationWithInvite(app.organizationId, link.id);
    expect(joined.status).toBe(200);
    expect(joined.data).toEqual({});
    const seen = await seenBy(joiner.token);
    expect(seen.status).toBe(200);
    expect(seen.permissions).toMatchObject({ admin: false, createContent: false });
    // A read member manages no invite links.
    expect(
      (await app.http('GET', `/v1/orgs/${app.organizationId}/link-invites`, { token: joiner.token })).status,
    ).toBe(403);
    // Joining again changes nothing, and a raised link role does not promote an existing member.
    await app
      .api()
      .orgs.updateOrganizationInviteById(app.organizationId, link.id, { role: 'admin' } as never);
    expect((await join(joiner.token, link.id)).status).toBe(200);
    expect((await seenBy(joiner.token)).permissions).toMatchObject({ admin: false });
    // The updated role is what the next user gets.
    const next = await addUser(app);
    expect((await join(next.token, link.id)).status).toBe(200);
    expect((await seenBy(next.token)).permissions).toMatchObject({ admin: true });
  });

  it("refuses alike a wrong id and the id of another organization's link (404)", async () => {
    const app = current();
    const other = await addOrganization(app, 'Invites elsewhere');
    const here = await createLink(MemberRole.Read);
    const there = await createLink(MemberRole.Admin, other);
    const stranger = await addUser(app);
    const head = (await app.api().orgs.listOrganizationInviteLinks(app.organizationId, { limit: 1000 })).data
      .count;
    // The last character changed to another one (the same one would be the id itself).
    const altered = `${here.id.slice(0, 31)}${here.id.endsWith('x') ? 'y' : 'x'}`;
    for (const key of [there.id, 'A'.repeat(32), altered, here.id.slice(0, 20)]) {
      const reply = await join(stranger.token, key);
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({ error: { code: 404, message: 'Invite not found' } });
    }
    expect((await seenBy(stranger.token)).status).toBe(404);
    expect((await links()).count).toBe(head);
    expect((await join(stranger.token, 'bad key!')).status).toBe(400);
  });

  it('deletes a link (205, then 204): it refuses at once', async () => {
    const app = current();
    const org = app.organizationId;
    const link = await createLink(MemberRole.Read);
    const deleted = await app.api().orgs.deleteOrganizationInviteById(org, link.id);
    expect(deleted.status).toBe(205);
    expect((await app.http('GET', `/v1/orgs/${org}/link-invites/${link.id}`)).status).toBe(404);
    expect((await links()).items.map((l) => l.id)).not.toContain(link.id);
    const late = await addUser(app);
    expect((await join(late.token, link.id)).status).toBe(404);
    expect((await seenBy(late.token)).status).toBe(404);
    expect((await app.http('DELETE', `/v1/orgs/${org}/link-invites/${link.id}`)).status).toBe(204);
    expect(
      (await app.http('PATCH', `/v1/orgs/${org}/link-invites/${link.id}`, { body: { role: 'read' } })).status,
    ).toBe(404);
  });

  it('an expired link refuses (410), and turning invite links off refuses every link at once (403)', async () => {
    const app = current();
    const org = app.organizationId;
    const old = await createLink(MemberRole.Read);
    app.clock.advance(31 * 24 * 60 * 60 * 1000);
    const fresh = await createLink(MemberRole.Read);
    const late = await addUser(app);
    const expired = await join(late.token, old.id);
    expect([expired.status, JSON.stringify(expired.body)]).toEqual([410, expect.stringMatching(/expired/)]);
    expect((await seenBy(late.token)).status).toBe(404);

    expect((await app.api().orgs.updateOrganizationById(org, { inviteLinks: false })).data.inviteLinks).toBe(
      false,
    );
    const off = await join(late.token, fresh.id);
    expect([off.status, JSON.stringify(off.body)]).toEqual([403, expect.stringMatching(/inviteLinks/)]);
    await app.api().orgs.updateOrganizationById(org, { inviteLinks: true });
    expect((await join(late.token, fresh.id)).status).toBe(200);
    expect((await seenBy(late.token)).status).toBe(200);
  });

  it('links to a space or a collection make a guest of a newcomer, with the level there', async () => {
    const app = current();
    const org = app.organizationId;
    const space = (await app.api().orgs.createSpace(org, { title: 'Handbook' })).data;
    const collection = (await app.api().orgs.createCollection(org, { title: 'Guides' })).data;
    const created = await app.http('POST', `/v1/orgs/${org}/link-invites`, {
      body: { level: 'edit', space: space.id },
    });
    expect(created.status).toBe(201);
    const link = created.body as {
      id: string;
      level: string;
      space: { id: string };
      redundant: boolean;
    };
    expect([link.level, link.space.id, link.redundant]).toEqual(['edit', space.id, true]);

    const newcomer = await addUser(app);
    expect((await join(newcomer.token, link.id)).status).toBe(200);
    const seen = await app.api(newcomer.token).spaces.getSpaceById(space.id);
    expect(seen.data.permissions).toMatchObject({ edit: true, review: false });
    const members = await app.api().orgs.listMembersInOrganizationById(org, { role: 'guest' as never });
    expect(members.data.items.map((m) => m.id)).toContain(newcomer.userId);
    expect(
      (await app.http('GET', `/v1/collections/${collection.id}`, { token: newcomer.token })).status,
    ).toBe(404);

    // A member who already has more keeps it: nothing is granted.
    const reviewer = await addUser(app, { organizationId: org, role: 'review' });
    expect((await join(reviewer.token, link.id)).status).toBe(200);
    const users = await app.api().spaces.listUserPermissionsInSpace(space.id);
    expect(users.data.items.map((p) => [p.user.id, p.permission])).toEqual([[newcomer.userId, 'edit']]);

    const toCollection = await app.http('POST', `/v1/orgs/${org}/link-invites`, {
      body: { level: 'read', collection: collection.id },
    });
    const collectionLink = toCollection.body as { id: string };
    expect((await join(newcomer.token, collectionLink.id)).status).toBe(200);
    expect(
      (await app.http('GET', `/v1/collections/${collection.id}`, { token: newcomer.token })).status,
    ).toBe(200);

    const changed = await app.http('PATCH', `/v1/orgs/${org}/link-invites/${link.id}`, {
      body: { level: 'comment' },
    });
    expect([changed.status, (changed.body as { level: string }).level]).toEqual([200, 'comment']);
    const wrong = await app.http('PATCH', `/v1/orgs/${org}/link-invites/${link.id}`, {
      body: { role: 'read' },
    });
    expect([wrong.status, JSON.stringify(wrong.body)]).toEqual([400, expect.stringMatching(/level/)]);
    // GitBook's list holds links to the organization; a link to content is read by its id.
    expect((await links()).items.map((l) => l.id)).not.toContain(link.id);
    const got = await app.api().orgs.getOrganizationInviteLink(org, collectionLink.id);
    expect(got.data).toMatchObject({
      id: collectionLink.id,
      level: 'read',
      collection: { id: collection.id },
    });

    const forms: [unknown, RegExp][] = [
      [{ level: 'read' }, /space/],
      [{ level: 'read', space: space.id, collection: collection.id }, /space/],
      [{ role: 'read', level: 'read', space: space.id }, /role/],
      [{ level: 'read', space: collection.id }, /space/],
      [{ level: 'owner', space: space.id }, /level/],
    ];
    for (const [body, field] of forms) {
      const reply = await app.http('POST', `/v1/orgs/${org}/link-invites`, { body });
      expect([reply.status, JSON.stringify(reply.body)]).toEqual([400, expect.stringMatching(field)]);
    }
  });

  it('refuses bad input naming the field, and changes nothing', async () => {
    const app = current();
    const org = app.organizationId;
    const link = await createLink(MemberRole.Read);
    const before = await links();
    const cases: [string, string, unknown, RegExp][] = [
      ['POST', `/v1/orgs/${org}/link-invites`, {}, /role/],
      ['POST', `/v1/orgs/${org}/link-invites`, { role: 'owner' }, /role/],
      ['POST', `/v1/orgs/${org}/link-invites`, { role: 'guest' }, /role/],
      ['POST', `/v1/orgs/${org}/link-invites`, { level: null }, /space/],
      ['POST', `/v1/orgs/${org}/link-invites`, { role: 'read', sso: true }, /sso/],
      ['PATCH', `/v1/orgs/${org}/link-invites/${link.id}`, { level: 'read' }, /level|role/],
      ['PATCH', `/v1/orgs/${org}/link-invites/${link.id}`, { role: 'x' }, /role/],
      ['POST', `/v1/orgs/${org}/invites`, {}, /emails/],
      ['POST', `/v1/orgs/${org}/invites`, { emails: ['not-an-email'] }, /emails\[0\]/],
      [
        'POST',
        `/v1/orgs/${org}/invites`,
        { emails: ['a@example.com', { email: 'b@example.com' }] },
        /emails\[1\]/,
      ],
      ['POST', `/v1/orgs/${org}/invites`, { emails: ['a\u0007b@example.com'] }, /emails\[0\]/],
      ['POST', `/v1/orgs/${org}/invites`, { emails: ['a@example.com'], role: 'owner' }, /role/],
      ['POST', `/v1/orgs/${org}/invites`, { emails: ['a@example.com'], sso: 'yes' }, /sso/],
    ];
    for (const [method, path, body, field] of cases) {
      const reply = await app.http(method, path, { body });
      expect({ method, path, body, status: reply.status }).toEqual({ method, path, body, status: 400 });
      expect(JSON.stringify(reply.body)).toMatch(field);
    }
    expect(await links()).toEqual(before);
  });

  it('invites by email, answering nothing of accounts: an existing one is admitted by a job, an unknown email waits', async () => {
    const app = current();
    const org = app.organizationId;
    const known = await userWithEmail(`known-${randomUUID()}@example.com`);
    const member = await userWithEmail(`member-${randomUUID()}@example.com`, 'read');
    const reply = await app.api().orgs.inviteUsersToOrganization(org, {
      emails: [
        { email: known.email.toUpperCase(), role: 'create' } as never,
        'nobody-yet@example.com',
        member.email,
      ],
      role: 'edit' as never,
    });
    expect(reply.status).toBe(200);
    // The same answer whether or not an email has an account here, or is a member's.
    expect(reply.data).toEqual({ users: [], invited: 3 });
    await eventually(async () => (await seenBy(known.token)).status === 200);
    expect((await seenBy(known.token)).permissions).toMatchObject({ admin: false, createContent: true });
    // The member keeps their role.
    expect((await seenBy(member.token)).permissions).toMatchObject({ createContent: false });
  });

  it('records every change in the audit log', async () => {
    const app = current();
    const org = app.organizationId;
    const link = await createLink(MemberRole.Read);
    await app.api().orgs.updateOrganizationInviteById(org, link.id, { role: 'edit' } as never);
    const joiner = await addUser(app);
    await join(joiner.token, link.id);
    await app.api().orgs.deleteOrganizationInviteById(org, link.id);
    await app.api().orgs.inviteUsersToOrganization(org, { emails: [`audit-${randomUUID()}@example.com`] });
    type Entry = { action: string; target: { id: string } };
    const events: Entry[] = [];
    for (const action of [
      'invite_link.created',
      'invite_link.updated',
      'invite_link.deleted',
      'member.added',
      'member.invited',
    ]) {
      const reply = await app.http('GET', `/v1/orgs/${org}/audit-events?action=${action}&limit=100`);
      expect(reply.status).toBe(200);
      events.push(...(reply.body as { items: Entry[] }).items);
    }
    const actions = (id: string) => events.filter((e) => e.target.id === id).map((e) => e.action);
    expect(actions(link.id).sort()).toEqual([
      'invite_link.created',
      'invite_link.deleted',
      'invite_link.updated',
    ]);
    expect(actions(joiner.userId)).toEqual(['member.added']);
    expect(events.map((e) => e.action)).toContain('member.invited');
  });

  it('invites SSO members by email (sso): an existing account, and one made later', async () => {
    const app = current();
    const org = app.organizationId;
    const known = await userWithEmail(`sso-${randomUUID()}@example.com`);
    const laterEmail = `sso-later-${randomUUID()}@example.com`;
    const reply = await app.api().orgs.inviteUsersToOrganization(org, {
      emails: [known.email, laterEmail],
      role: MemberRole.Edit,
      sso: true,
    });
    expect(reply.data).toEqual({ users: [], invited: 2 });
    const ssoOf = async (userId: string) =>
      (await app.http('GET', `/v1/orgs/${org}/members/${userId}`)).body as { role: string; sso: boolean };
    await eventually(async () => (await seenBy(known.token)).status === 200);
    expect(await ssoOf(known.userId)).toMatchObject({ role: 'edit', sso: true });
    const later = await userWithEmail(laterEmail);
    await eventually(async () => (await seenBy(later.token)).status === 200);
    expect(await ssoOf(later.userId)).toMatchObject({ role: 'edit', sso: true });
  });

  it('admits a user created later with an invited email, with the invite role', async () => {
    const app = current();
    const email = `later-${randomUUID()}@example.com`;
    const reply = await app.api().orgs.inviteUsersToOrganization(app.organizationId, {
      emails: [email.toUpperCase()],
      role: 'create' as never,
    });
    expect(reply.data).toEqual({ users: [], invited: 1 });
    const later = await userWithEmail(email);
    await eventually(async () => (await seenBy(later.token)).status === 200);
    expect((await seenBy(later.token)).permissions).toMatchObject({ admin: false, createContent: true });
  });

  it('invites guests the GitBook way: a null role on a link, on its update and by email', async () => {
    const app = current();
    const org = app.organizationId;
    const api = app.api();
    const guests = members(org);

    const link = await createLink(null);
    expect(link).toEqual({ object: 'invite', id: link.id, role: null, redundant: true });
    const joiner = await addUser(app);
    expect((await app.api(joiner.token).orgs.joinOrganizationWithInvite(org, link.id)).status).toBe(200);
    expect(await guests()).toContain(joiner.userId);
    // A guest reaches only what is shared with them.
    await app.api().orgs.createSpace(org, { title: 'Not shared' });
    const seen = await app.http('GET', `/v1/orgs/${org}/spaces`, { token: joiner.token });
    expect([seen.status, (seen.body as { items: unknown[] }).items]).toEqual([200, []]);

    // A member link turned into a guest link, and back.
    const member = await createLink(MemberRole.Edit);
    const toGuest = await api.orgs.updateOrganizationInviteById(org, member.id, { role: null });
    expect(toGuest.data).toEqual({ ...member, role: null });
    const second = await addUser(app);
    expect((await join(second.token, member.id)).status).toBe(200);
    expect(await guests()).toContain(second.userId);

    // By email: an existing account by a job, an unknown email once its account exists.
    const known = await userWithEmail(`guest-${randomUUID()}@example.com`);
    const laterEmail = `guest-later-${randomUUID()}@example.com`;
    const invited = await api.orgs.inviteUsersToOrganization(org, {
      emails: [known.email, { email: laterEmail, role: null }],
      role: null,
    });
    expect(invited.data).toEqual({ users: [], invited: 2 });
    await eventually(async () => (await guests()).includes(known.userId));
    const later = await userWithEmail(laterEmail);
    await eventually(async () => (await guests()).includes(later.userId));
  });

  it('a guest link to a space (level null) shares it with a newcomer at the least level', async () => {
    const app = current();
    const org = app.organizationId;
    const api = app.api();
    const space = (await api.orgs.createSpace(org, { title: 'Guest space' })).data;
    const created = await api.orgs.createOrganizationInvite(org, { level: null, space: space.id });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      object: 'invite',
      level: null,
      space: { id: space.id },
      redundant: true,
    });
    const newcomer = await addUser(app);
    expect((await app.api(newcomer.token).orgs.joinOrganizationWithInvite(org, created.data.id)).status).toBe(
      200,
    );
    expect(await members(org)()).toContain(newcomer.userId);
    const seen = await app.api(newcomer.token).spaces.getSpaceById(space.id);
    expect(seen.data.permissions).toMatchObject({ view: true, comment: false, edit: false });
    const level = await api.orgs.updateOrganizationInviteById(org, created.data.id, {
      level: MemberRole.Comment,
    });
    expect(level.data).toMatchObject({ level: 'comment' });
  });
});
