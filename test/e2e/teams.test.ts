import { type OrganizationTeam, type OrganizationTeamMember, TeamMemberRole } from '@gitbook/api';
import { addUser, useTestApp } from '../support/app-harness';

describe('teams over HTTP', () => {
  const current = useTestApp();

  const create = async (body: { title: string; members?: string[] }) => {
    const app = current();
    const reply = await app.api().orgs.createOrganizationTeam(app.organizationId, body);
    expect(reply.status).toBe(201);
    return reply.data as OrganizationTeam;
  };
  const member = async (role: 'read' | 'admin' = 'read') =>
    addUser(current(), { organizationId: current().organizationId, role });
  const members = async (teamId: string) => {
    const app = current();
    const { data } = await app.api().orgs.listTeamMembersInOrganizationById(app.organizationId, teamId, {
      limit: 1000,
    });
    return data.items as OrganizationTeamMember[];
  };
  const roles = async (teamId: string) =>
    Object.fromEntries((await members(teamId)).map((m) => [m.organization.id, m.team.role]));

  it('creates a team with members, gets it, and lists it', async () => {
    const app = current();
    const org = app.organizationId;
    const a = await member();
    const created = await create({ title: 'Writers', members: [a.userId, app.userId] });
    expect(created).toMatchObject({
      object: 'team',
      title: 'Writers',
      members: 2,
      spaces: 0,
      permissions: { admin: true, view: true },
    });
    const { data } = await app.api().orgs.getTeamInOrganizationById(org, created.id);
    expect(data).toEqual(created);
    const list = await app.api().orgs.listTeamsInOrganizationById(org, { limit: 1000 });
    expect(list.data.items.map((t) => t.id)).toContain(created.id);
    expect(await roles(created.id)).toEqual({ [a.userId]: 'member', [app.userId]: 'member' });
  });

  it('refuses a member who is not in the organization, a missing or bad title, naming the field', async () => {
    const app = current();
    const org = app.organizationId;
    const stranger = await addUser(app);
    const before = (await app.api().orgs.listTeamsInOrganizationById(org, { limit: 1000 })).data.count;
    const cases: [unknown, RegExp][] = [
      [{ title: 'X', members: [stranger.userId] }, /members/],
      [{}, /title/],
      [{ title: '' }, /title/],
      [{ title: 'x'.repeat(65) }, /title/],
      [{ title: 'a\u0007b' }, /title/],
    ];
    for (const [body, field] of cases) {
      const reply = await app.http('PUT', `/v1/orgs/${org}/teams`, { body });
      expect(reply.status).toBe(400);
      expect(JSON.stringify(reply.body)).toMatch(field);
    }
    expect((await app.api().orgs.listTeamsInOrganizationById(org, { limit: 1000 })).data.count).toBe(before);
  });

  it('renames and deletes a team', async () => {
    const app = current();
    const org = app.organizationId;
    const team = await create({ title: 'Old' });
    const { data } = await app.api().orgs.updateTeamInOrganizationById(org, team.id, { title: 'New' });
    expect(data.title).toBe('New');
    expect((await app.api().orgs.getTeamInOrganizationById(org, team.id)).data).toEqual(data);
    const removed = await app.api().orgs.removeTeamFromOrganizationById(org, team.id);
    expect(removed.status).toBe(204);
    expect((await app.http('GET', `/v1/orgs/${org}/teams/${team.id}`)).status).toBe(404);
    expect((await app.http('DELETE', `/v1/orgs/${org}/teams/${team.id}`)).status).toBe(404);
  });

  it('filters teams by title, case-insensitively, and by the member who can manage them', async () => {
    const app = current();
    const org = app.organizationId;
    const owner = await member();
    const managed = await create({ title: 'Zebra Crossing' });
    await create({ title: 'zebra Stripes' });
    await app
      .api()
      .orgs.addMemberToOrganizationTeamById(org, managed.id, owner.userId, { role: TeamMemberRole.Owner });
    const byTitle = await app.api().orgs.listTeamsInOrganizationById(org, { title: 'ZEBRA', limit: 1000 });
    expect(byTitle.data.items.map((t) => t.title).sort()).toEqual(['Zebra Crossing', 'zebra Stripes']);
    const byOwner = await app.api().orgs.listTeamsInOrganizationById(org, { owner: owner.userId });
    expect(byOwner.data.items.map((t) => t.id)).toEqual([managed.id]);
    // An organization admin can manage every team.
    const byAdmin = await app
      .api()
      .orgs.listTeamsInOrganizationById(org, { owner: app.userId, title: 'zebra' });
    expect(byAdmin.data.count).toBe(2);
    // Paged in memory when filtered.
    const first = await app.api().orgs.listTeamsInOrganizationById(org, { title: 'zebra', limit: 1 });
    expect(first.data.items).toHaveLength(1);
    const next = await app.api().orgs.listTeamsInOrganizationById(org, {
      title: 'zebra',
      limit: 1,
      page: first.data.next?.page,
    });
    expect(next.data.items[0].id).not.toBe(first.data.items[0].id);
  });

  it('adds, updates and removes one member; the count follows', async () => {
    const app = current();
    const org = app.organizationId;
    const a = await member();
    const team = await create({ title: 'Singles' });
    const added = await app.api().orgs.addMemberToOrganizationTeamById(org, team.id, a.userId, {});
    expect(added.status).toBe(204);
    expect(await roles(team.id)).toEqual({ [a.userId]: 'member' });
    await app
      .api()
      .orgs.addMemberToOrganizationTeamById(org, team.id, a.userId, { role: TeamMemberRole.Owner });
    expect(await roles(team.id)).toEqual({ [a.userId]: 'owner' });
    // Without a role, an existing member keeps theirs.
    await app.api().orgs.addMemberToOrganizationTeamById(org, team.id, a.userId, {});
    expect(await roles(team.id)).toEqual({ [a.userId]: 'owner' });
    const [item] = await members(team.id);
    expect(item).toMatchObject({
      organization: { object: 'member', id: a.userId, role: 'read', teams: 1 },
      team: { role: TeamMemberRole.Owner },
      permissions: { view: true },
    });
    expect((await app.api().orgs.getTeamInOrganizationById(org, team.id)).data.members).toBe(1);
    const gone = await app.api().orgs.deleteMemberFromOrganizationTeamById(org, team.id, a.userId);
    expect(gone.status).toBe(204);
    expect(await roles(team.id)).toEqual({});
    expect((await app.api().orgs.getTeamInOrganizationById(org, team.id)).data.members).toBe(0);
    // Removing someone not in the team changes nothing.
    expect((await app.api().orgs.deleteMemberFromOrganizationTeamById(org, team.id, a.userId)).status).toBe(
      204,
    );
  });

  it('refuses adding a user who is not a member of the organization, or a bad role', async () => {
    const app = current();
    const org = app.organizationId;
    const stranger = await addUser(app);
    const team = await create({ title: 'Closed' });
    const path = `/v1/orgs/${org}/teams/${team.id}/members`;
    expect((await app.http('PUT', `${path}/${stranger.userId}`, { body: {} })).status).toBe(404);
    const bad = await app.http('PUT', `${path}/${app.userId}`, { body: { role: 'admin' } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/role/);
    expect(await roles(team.id)).toEqual({});
  });

  it('updates members in bulk, by id and by email; a user both added and removed ends removed', async () => {
    const app = current();
    const org = app.organizationId;
    const [a, b, c] = [await member(), await member(), await member()];
    const team = await create({ title: 'Bulk', members: [a.userId, b.userId] });
    // Find c's email as the organization sees it.
    const probe = await create({ title: 'Probe', members: [c.userId] });
    const email = (await members(probe.id))[0].organization.user.email as string;
    const reply = await app.api().orgs.updateMembersInOrganizationTeam(org, team.id, {
      add: [email, b.userId],
      remove: [a.userId, b.userId],
      memberships: {
        [c.userId]: { role: TeamMemberRole.Owner },
        [app.userId]: { role: TeamMemberRole.Member },
      },
    });
    expect(reply.status).toBe(204);
    expect(await roles(team.id)).toEqual({ [c.userId]: 'owner', [app.userId]: 'member' });
    expect((await app.api().orgs.getTeamInOrganizationById(org, team.id)).data.members).toBe(2);
  });

  it('removes a user named in both add and remove though they are not, or no longer, a member', async () => {
    const app = current();
    const org = app.organizationId;
    const stranger = await addUser(app);
    const leaver = await member();
    const stays = await member();
    const team = await create({ title: 'Leavers', members: [leaver.userId, stays.userId] });
    expect((await app.api().orgs.removeMemberFromOrganizationById(org, leaver.userId)).status).toBe(204);
    const reply = await app.api().orgs.updateMembersInOrganizationTeam(org, team.id, {
      add: [leaver.userId, stranger.userId],
      remove: [leaver.userId, stranger.userId],
      memberships: { [stranger.userId]: { role: TeamMemberRole.Owner } },
    });
    expect(reply.status).toBe(204);
    expect(await roles(team.id)).toEqual({ [stays.userId]: 'member' });
  });

  it('refuses a bulk update naming a non-member or a bad membership, and changes nothing', async () => {
    const app = current();
    const org = app.organizationId;
    const stranger = await addUser(app);
    const a = await member();
    const team = await create({ title: 'Guarded', members: [a.userId] });
    const path = `/v1/orgs/${org}/teams/${team.id}/members`;
    const cases: [unknown, RegExp][] = [
      [{ add: [stranger.userId] }, /add/],
      [{ add: ['nobody@example.com'] }, /add/],
      [{ add: ['not an id'] }, /add/],
      [{ remove: 'x' }, /remove/],
      [{ memberships: { [a.userId]: { role: 'admin' } } }, /memberships/],
      [{ memberships: { [a.userId]: { role: 'owner', extra: 1 } } }, /memberships/],
      [{ memberships: { [stranger.userId]: { role: TeamMemberRole.Owner } } }, /memberships/],
      [{ memberships: [] }, /memberships/],
    ];
    for (const [body, field] of cases) {
      const reply = await app.http('PUT', path, { body });
      expect([reply.status, JSON.stringify(reply.body)]).toEqual([400, expect.stringMatching(field)]);
    }
    expect(await roles(team.id)).toEqual({ [a.userId]: 'member' });
  });

  it('lets members read teams and only admins manage them', async () => {
    const app = current();
    const org = app.organizationId;
    const reader = await member();
    const team = await create({ title: 'Readable', members: [reader.userId] });
    const api = app.api(reader.token);
    const { data } = await api.orgs.getTeamInOrganizationById(org, team.id);
    expect(data.permissions).toEqual({ admin: false, view: true });
    expect((await api.orgs.listTeamMembersInOrganizationById(org, team.id)).data.count).toBe(1);
    const asReader = { token: reader.token };
    expect(
      (await app.http('PATCH', `/v1/orgs/${org}/teams/${team.id}`, { ...asReader, body: { title: 'X' } }))
        .status,
    ).toBe(403);
    expect(
      (await app.http('PUT', `/v1/orgs/${org}/teams`, { ...asReader, body: { title: 'X' } })).status,
    ).toBe(403);
  });

  it("lets a team's owners rename it and manage its members, and nothing more", async () => {
    const app = current();
    const org = app.organizationId;
    const [owner, other] = [await member(), await member()];
    const team = await create({ title: 'Owned', members: [owner.userId] });
    const elsewhere = await create({ title: 'Not theirs' });
    await app.api().orgs.addMemberToOrganizationTeamById(org, team.id, owner.userId, {
      role: TeamMemberRole.Owner,
    });
    const api = app.api(owner.token);
    expect((await api.orgs.getTeamInOrganizationById(org, team.id)).data.permissions).toEqual({
      admin: true,
      view: true,
    });
    expect((await api.orgs.updateTeamInOrganizationById(org, team.id, { title: 'Owned!' })).data.title).toBe(
      'Owned!',
    );
    await api.orgs.addMemberToOrganizationTeamById(org, team.id, other.userId, {});
    await api.orgs.updateMembersInOrganizationTeam(org, team.id, {
      memberships: { [other.userId]: { role: TeamMemberRole.Owner } },
    });
    expect(await roles(team.id)).toEqual({ [owner.userId]: 'owner', [other.userId]: 'owner' });
    await api.orgs.deleteMemberFromOrganizationTeamById(org, team.id, other.userId);
    expect(await roles(team.id)).toEqual({ [owner.userId]: 'owner' });
    const as = { token: owner.token };
    const refused = [
      await app.http('DELETE', `/v1/orgs/${org}/teams/${team.id}`, as),
      await app.http('PATCH', `/v1/orgs/${org}/teams/${elsewhere.id}`, { ...as, body: { title: 'Mine' } }),
      await app.http('PUT', `/v1/orgs/${org}/teams/${elsewhere.id}/members/${owner.userId}`, {
        ...as,
        body: {},
      }),
      await app.http('PUT', `/v1/orgs/${org}/teams`, { ...as, body: { title: 'New' } }),
    ];
    expect(refused.map((r) => r.status)).toEqual([403, 403, 403, 403]);
    expect((await app.api().orgs.getTeamInOrganizationById(org, elsewhere.id)).data.members).toBe(0);
    // Demoted, they manage it no more.
    await app.api().orgs.addMemberToOrganizationTeamById(org, team.id, owner.userId, {
      role: TeamMemberRole.Member,
    });
    const after = await app.http('PATCH', `/v1/orgs/${org}/teams/${team.id}`, {
      ...as,
      body: { title: 'X' },
    });
    expect(after.status).toBe(403);
  });

  it('records every change in the audit log, about the team', async () => {
    const app = current();
    const org = app.organizationId;
    const a = await member();
    const team = await create({ title: 'Audited', members: [a.userId] });
    await app.api().orgs.updateTeamInOrganizationById(org, team.id, { title: 'Audited again' });
    await app
      .api()
      .orgs.addMemberToOrganizationTeamById(org, team.id, a.userId, { role: TeamMemberRole.Owner });
    await app.api().orgs.deleteMemberFromOrganizationTeamById(org, team.id, a.userId);
    await app.api().orgs.removeTeamFromOrganizationById(org, team.id);
    const reply = await app.http('GET', `/v1/orgs/${org}/audit-events?target=${team.id}&limit=100`);
    expect(reply.status).toBe(200);
    const items = (reply.body as { items: { action: string; target: { type: string; id: string } }[] }).items;
    expect(items.map((e) => e.action).sort()).toEqual(
      [
        'team.created',
        'team.member_added',
        'team.renamed',
        'team.member_role_changed',
        'team.member_removed',
        'team.deleted',
      ].sort(),
    );
    expect(items.every((e) => e.target.type === 'team' && e.target.id === team.id)).toBe(true);
  });

  it('answers 404 for a team of another organization', async () => {
    const app = current();
    const team = await create({ title: 'Mine' });
    const { addOrganization } = await import('../support/app-harness');
    const other = await addOrganization(app);
    expect((await app.http('GET', `/v1/orgs/${other}/teams/${team.id}`)).status).toBe(404);
    expect(
      (await app.http('PATCH', `/v1/orgs/${other}/teams/${team.id}`, { body: { title: 'Y' } })).status,
    ).toBe(404);
  });
});
