import {
  newClaimsKeyPem,
  parseClaimsKeys,
  publicJwks,
  signClaims,
  verifyClaims,
} from '@app/members/domain/visitor-claims';
import { organizationStream } from '@app/organizations/domain/organization.decider';
import { ManualClock } from '@app/platform/clock/clock';
import { MemberRole, type OrganizationMember, type OrganizationTeam, TeamMemberRole } from '@gitbook/api';
import { addUser, type TestApp, useTestApp } from '../support/app-harness';

type Jwks = { keys: { kid?: string }[] };

const jwksOf = async (app: TestApp) => {
  const reply = await app.http('GET', '/v1/.well-known/jwks.json', { token: null });
  expect(reply.status).toBe(200);
  return reply.body as Jwks;
};

const ping = async (app: TestApp, token: string) => {
  const reply = await app.api(token).orgs.updateOrganizationMemberLastSeenAt(app.organizationId);
  expect(reply.status).toBe(200);
  return (reply.data as unknown as { serviceVisitorClaims: string }).serviceVisitorClaims;
};

describe('organization members over HTTP', () => {
  const clock = new ManualClock();
  const current = useTestApp({ clock });

  const member = (role: 'read' | 'edit' | 'admin' = 'read') =>
    addUser(current(), { organizationId: current().organizationId, role });
  const get = async (userId: string) => {
    const app = current();
    return (await app.api().orgs.getMemberInOrganizationById(app.organizationId, userId)).data;
  };
  const list = async (query: Record<string, unknown> = {}) => {
    const app = current();
    const { data } = await app.api().orgs.listMembersInOrganizationById(app.organizationId, {
      limit: 1000,
      ...query,
    } as never);
    return data.items as OrganizationMember[];
  };
  const emailOf = async (userId: string) => (await get(userId)).user.email ?? '';

  it('lists, filters, searches, orders and gets members', async () => {
    const app = current();
    const a = await member('read');
    const b = await member('edit');
    const all = await list();
    expect(all.map((m) => m.id)).toEqual(expect.arrayContaining([app.userId, a.userId, b.userId]));
    // Newest first by default; `asc` reverses.
    const asc = await list({ order: 'asc' });
    expect(asc.map((m) => m.id)).toEqual(all.map((m) => m.id).reverse());
    expect(all[0].id).toBe(b.userId);
    expect((await list({ role: 'edit' })).map((m) => m.id)).toEqual([b.userId]);
    expect((await list({ role: 'admin' })).map((m) => m.id)).toEqual([app.userId]);
    const email = await emailOf(a.userId);
    expect((await list({ search: email.slice(0, 12).toUpperCase() })).map((m) => m.id)).toEqual([a.userId]);
    expect((await list({ search: 'no such member' })).length).toBe(0);
    const got = await get(a.userId);
    expect(got).toMatchObject({
      object: 'member',
      id: a.userId,
      role: 'read',
      disabled: false,
      sso: false,
      teams: 0,
      sites: 0,
      user: { id: a.userId, email },
    });
    expect((await app.http('GET', `/v1/orgs/${app.organizationId}/members/nobody`)).status).toBe(404);
    const page = await app.api().orgs.listMembersInOrganizationById(app.organizationId, { limit: 1 });
    expect(page.data.items.length).toBe(1);
    expect(page.data.next?.page).toBeDefined();
  });

  it('refuses bad list queries and bad roles naming the field, changing nothing', async () => {
    const app = current();
    const org = app.organizationId;
    for (const [query, field] of [
      ['order=up', /order/],
      ['role=owner', /role/],
      ['sort=email', /sort/],
      [`search=${'x'.repeat(513)}`, /search/],
    ] as const) {
      const reply = await app.http('GET', `/v1/orgs/${org}/members?${query}`);
      expect(reply.status).toBe(400);
      expect(JSON.stringify(reply.body)).toMatch(field);
    }
    const a = await member('read');
    for (const role of ['owner', 7, 'guest']) {
      const reply = await app.http('PATCH', `/v1/orgs/${org}/members/${a.userId}`, { body: { role } });
      expect(reply.status).toBe(400);
      expect(JSON.stringify(reply.body)).toMatch(/role/);
    }
    expect((await get(a.userId)).role).toBe('read');
  });

  it("changes a member's role, to guest too, and a lowered role takes effect at once", async () => {
    const app = current();
    const org = app.organizationId;
    const a = await member('admin');
    const auditStatus = async () =>
      (await app.http('GET', `/v1/orgs/${org}/audit-events?limit=1`, { token: a.token })).status;
    expect(await auditStatus()).toBe(200);
    const { data } = await app
      .api()
      .orgs.updateMemberInOrganizationById(org, a.userId, { role: MemberRole.Edit });
    expect(data).toMatchObject({ id: a.userId, role: 'edit' });
    expect(await auditStatus()).toBe(403);
    const guest = await app.api().orgs.updateMemberInOrganizationById(org, a.userId, { role: null });
    expect(guest.data.role).toBeNull();
    expect((await list({ role: 'guest' })).map((m) => m.id)).toContain(a.userId);
    // A guest has no role in the organization itself: it sees the organization, but not its members.
    const seen = await app.http('GET', `/v1/orgs/${org}`, { token: a.token });
    expect(seen.status).toBe(200);
    expect((seen.body as { permissions: object }).permissions).toMatchObject({
      admin: false,
      listMembers: false,
    });
    expect((await app.http('GET', `/v1/orgs/${org}/members`, { token: a.token })).status).toBe(403);
    // Without a role the member is answered unchanged.
    const same = await app.api().orgs.updateMemberInOrganizationById(org, a.userId, {});
    expect(same.data.role).toBeNull();
  });

  it('keeps the last admin: neither removed nor demoted (409), and the log does not move', async () => {
    const app = current();
    const org = app.organizationId;
    const admins = async () => (await list({ role: 'admin' })).map((m) => m.id);
    expect(await admins()).toEqual([app.userId]);
    const demote = await app.http('PATCH', `/v1/orgs/${org}/members/${app.userId}`, {
      body: { role: 'read' },
    });
    expect(demote.status).toBe(409);
    expect(JSON.stringify(demote.body)).toMatch(/last admin/);
    const remove = await app.http('DELETE', `/v1/orgs/${org}/members/${app.userId}`);
    expect(remove.status).toBe(409);
    expect(await admins()).toEqual([app.userId]);
  });

  it('never records a change by an admin demoted before it was appended (authorization and append agree)', async () => {
    const app = current();
    const org = app.organizationId;
    const carol = await member('admin');
    const bob = await member('read');
    const patch = (userId: string, role: string, token?: string) =>
      app.http('PATCH', `/v1/orgs/${org}/members/${userId}`, { token, body: { role } });
    const outcomes: number[] = [];
    for (let round = 0; round < 10; round++) {
      // Both requests are authorized while Carol is an admin; whichever is appended first decides.
      const [demoted, changed] = await Promise.all([
        patch(carol.userId, 'read'),
        patch(bob.userId, round % 2 === 0 ? 'edit' : 'read', carol.token),
      ]);
      expect(demoted.status).toBe(200);
      expect([200, 403]).toContain(changed.status);
      outcomes.push(changed.status);
      expect((await patch(carol.userId, 'admin')).status).toBe(200);
    }
    // Folded from the log: every role change Carol made was appended while she was an admin.
    const roles = new Map<string, string | null>();
    for (const event of await app.built.storage.events.readStream(organizationStream(org))) {
      const data = event.data as { userId: string; role: string | null };
      if (event.type === 'MemberRoleChanged' && event.metadata.actor.userId === carol.userId)
        expect({ by: roles.get(carol.userId), at: event.position }).toEqual({
          by: 'admin',
          at: event.position,
        });
      if (event.type === 'MemberAdded' || event.type === 'MemberRoleChanged')
        roles.set(data.userId, data.role);
    }
    expect(outcomes).toHaveLength(10);
  });

  it('a member or a guest leaves the organization themselves, but removes nobody else', async () => {
    const app = current();
    const org = app.organizationId;
    const a = await member('read');
    const b = await member('read');
    expect((await app.http('DELETE', `/v1/orgs/${org}/members/${b.userId}`, { token: a.token })).status).toBe(
      403,
    );
    expect((await app.http('DELETE', `/v1/orgs/${org}/members/${a.userId}`, { token: a.token })).status).toBe(
      204,
    );
    expect((await app.http('GET', `/v1/orgs/${org}`, { token: a.token })).status).toBe(404);
    await app.api().orgs.updateMemberInOrganizationById(org, b.userId, { role: null });
    expect((await app.http('DELETE', `/v1/orgs/${org}/members/${b.userId}`, { token: b.token })).status).toBe(
      204,
    );
    expect((await list({})).map((m) => m.id)).not.toContain(b.userId);
  });

  it('removes a member: gone at once for their own requests, and out of every team', async () => {
    const app = current();
    const org = app.organizationId;
    const a = await member('read');
    const created = await app
      .api()
      .orgs.createOrganizationTeam(org, { title: 'Leavers', members: [a.userId] });
    const team = created.data as OrganizationTeam;
    expect((await app.http('GET', `/v1/orgs/${org}/members`, { token: a.token })).status).toBe(200);
    const removed = await app.api().orgs.removeMemberFromOrganizationById(org, a.userId);
    expect(removed.status).toBe(204);
    expect((await app.http('GET', `/v1/orgs/${org}/members`, { token: a.token })).status).toBe(404);
    expect((await app.http('GET', `/v1/orgs/${org}/members/${a.userId}`)).status).toBe(404);
    expect((await app.http('DELETE', `/v1/orgs/${org}/members/${a.userId}`)).status).toBe(404);
    // The teams' own streams record the departure, from a job the removal starts.
    const deadline = Date.now() + 10_000;
    let members = -1;
    while (Date.now() < deadline) {
      members = (await app.api().orgs.getTeamInOrganizationById(org, team.id)).data.members;
      if (members === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(members).toBe(0);
  });

  it('sets a member as an SSO member', async () => {
    const app = current();
    const a = await member('read');
    const reply = await app.api().orgs.setUserAsSsoMemberForOrganization(app.organizationId, a.userId);
    expect(reply.status).toBe(200);
    expect(reply.data).toMatchObject({ id: a.userId, sso: true });
    expect((await get(a.userId)).sso).toBe(true);
    expect((await app.http('POST', `/v1/orgs/${app.organizationId}/members/nobody/sso`)).status).toBe(404);
  });

  it("lists a member's teams, filtered by title, with their role in each", async () => {
    const app = current();
    const org = app.organizationId;
    const a = await member('read');
    const alpha = (
      await app.api().orgs.createOrganizationTeam(org, { title: 'Alpha Writers', members: [a.userId] })
    ).data as OrganizationTeam;
    await app.api().orgs.createOrganizationTeam(org, { title: 'Beta', members: [a.userId] });
    await app.api().orgs.createOrganizationTeam(org, { title: 'Gamma alpha' });
    await app
      .api()
      .orgs.addMemberToOrganizationTeamById(org, alpha.id, a.userId, { role: TeamMemberRole.Owner });
    const all = await app.api().orgs.listTeamsForOrganizationMember(org, a.userId, { limit: 1000 });
    expect(all.data.items.map((i) => i.team.title)).toEqual(['Alpha Writers', 'Beta']);
    const filtered = await app.api().orgs.listTeamsForOrganizationMember(org, a.userId, { title: 'ALPHA' });
    expect(filtered.data.items).toHaveLength(1);
    expect(filtered.data.items[0]).toMatchObject({ team: { id: alpha.id }, member: { role: 'owner' } });
    expect((await get(a.userId)).teams).toBe(2);
  });

  it("lists a member's spaces with the permission their organization role gives", async () => {
    const app = current();
    const org = app.organizationId;
    const a = await member('edit');
    const space = (await app.api().orgs.createSpace(org, { title: 'Handbook' })).data;
    const { data } = await app.api().orgs.listSpacesForOrganizationMember(org, a.userId, { limit: 1000 });
    const item = data.items.find((i) => i.space.id === space.id);
    expect(item?.permission).toBe('edit');
    expect(data.items.every((i) => i.permission === 'edit')).toBe(true);
    expect((await get(a.userId)).spaces).toBe(data.count);
    await app.api().orgs.updateMemberInOrganizationById(org, a.userId, { role: null });
    const guest = await app.api().orgs.listSpacesForOrganizationMember(org, a.userId, {});
    expect(guest.data).toMatchObject({ count: 0, items: [] });
  });

  it('pings: records when a member was last seen, at most once a minute, and answers signed claims', async () => {
    const app = current();
    const a = await member('read');
    const b = await member('read');
    const claims = await ping(app, a.token);
    const jwks = await jwksOf(app);
    expect(verifyClaims(claims, jwks as never, clock.now())).toMatchObject({
      sub: a.userId,
      organization: app.organizationId,
    });
    const [other] = parseClaimsKeys(newClaimsKeyPem());
    expect(verifyClaims(claims, publicJwks([other]), clock.now())).toBeNull();
    const seen = (await get(a.userId)).lastSeenAt;
    expect(seen).toBeDefined();
    const active = (await list({ sort: 'lastSeenAt' })).map((m) => m.id);
    expect(active).toContain(a.userId);
    expect(active).not.toContain(b.userId);
    clock.advance(30_000);
    await ping(app, a.token);
    expect((await get(a.userId)).lastSeenAt).toBe(seen);
    clock.advance(31_000);
    await ping(app, a.token);
    expect((await get(a.userId)).lastSeenAt).not.toBe(seen);
    await ping(app, b.token);
    // Most recently seen first.
    expect((await list({ sort: 'lastSeenAt' })).slice(0, 2).map((m) => m.id)).toEqual([b.userId, a.userId]);
  });

  it('keeps the drawn development key across a restart', async () => {
    const before = await jwksOf(current());
    const app = await current.restart();
    expect(await jwksOf(app)).toEqual(before);
  });
});

describe('visitor claims keys from configuration', () => {
  const oldPem = newClaimsKeyPem();
  const newPem = newClaimsKeyPem();
  const current = useTestApp({ config: { visitorClaimsKeys: `${newPem}\n${oldPem}` } });

  it('signs with the first key and publishes both, so what the old one signed still verifies', async () => {
    const app = current();
    const [signing, old] = parseClaimsKeys(`${newPem}\n${oldPem}`);
    const jwks = await jwksOf(app);
    expect(jwks.keys.map((k) => k.kid)).toEqual([signing.kid, old.kid]);
    const token = await ping(app, app.token);
    const header = JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString());
    expect(header).toEqual({ alg: 'ES256', typ: 'JWT', kid: signing.kid });
    expect(verifyClaims(token, jwks as never, Date.now())).toMatchObject({ sub: app.userId });
    const fromOld = signClaims(old, { sub: app.userId, exp: Math.floor(Date.now() / 1000) + 60 });
    expect(verifyClaims(fromOld, jwks as never, Date.now())).not.toBeNull();
    expect(verifyClaims(token, publicJwks(parseClaimsKeys(newClaimsKeyPem())), Date.now())).toBeNull();
  });
});
