import { MemberRole } from '@gitbook/api';
import { addOrganization, addUser, useTestApp } from '../support/app-harness';
import { logHead } from '../support/http-checks';

describe('organizations over HTTP', () => {
  const current = useTestApp();

  it('lists the caller organizations (bootstrap admin) as the GitBook client reads them', async () => {
    const app = current();
    const { data } = await app.api().orgs.listOrganizationsForAuthenticatedUser();
    expect(data.count).toBe(1);
    expect(data.items[0]).toMatchObject({ object: 'organization', title: 'My organization' });
    expect(data.items[0].permissions.admin).toBe(true);
  });

  it('gets an organization, with permissions computed from the caller role', async () => {
    const app = current();
    const { data } = await app.api().orgs.getOrganizationById(app.organizationId);
    expect(data.id).toBe(app.organizationId);
    expect(data.urls.location).toBe(`http://docs.test/v1/orgs/${app.organizationId}`);

    const reader = await addUser(app, { organizationId: app.organizationId, role: 'read' });
    const { data: seen } = await app.api(reader.token).orgs.getOrganizationById(app.organizationId);
    expect(seen.permissions).toMatchObject({ view: true, admin: false, createContent: false });
  });

  it('pages through organizations with opaque page tokens', async () => {
    const app = current();
    await addOrganization(app, 'Second');
    await addOrganization(app, 'Third');
    const first = await app.http('GET', '/v1/orgs?limit=2');
    expect(first.status).toBe(200);
    const page1 = first.body as { count: number; items: { id: string }[]; next?: { page: string } };
    expect(page1.count).toBe(3);
    expect(page1.items).toHaveLength(2);
    expect(page1.next?.page).toEqual(expect.any(String));
    const second = await app.http('GET', `/v1/orgs?limit=2&page=${page1.next?.page}`);
    const page2 = second.body as { items: { id: string }[]; next?: unknown };
    expect(page2.items).toHaveLength(1);
    expect(page2.next).toBeUndefined();
    const ids = [...page1.items, ...page2.items].map((o) => o.id);
    expect(new Set(ids).size).toBe(3);
  });

  it('hides organizations the caller is not a member of (404)', async () => {
    const app = current();
    const outsider = await addUser(app);
    const reply = await app.http('GET', `/v1/orgs/${app.organizationId}`, { token: outsider.token });
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ error: { code: 404, message: expect.any(String) } });
    const list = await app.http('GET', '/v1/orgs', { token: outsider.token });
    expect(list.body).toEqual({ count: 0, items: [] });
  });

  it('updates every setting of an organization through the GitBook client; a later GET agrees', async () => {
    const app = current();
    const org = await addOrganization(app, 'Updatable');
    const { data } = await app.api().orgs.updateOrganizationById(org, {
      title: '  Acme Docs  ',
      emailDomains: ['Acme.test', 'docs.acme.test'],
      hostname: 'acme-docs',
      defaultRole: MemberRole.Edit,
      defaultContent: null,
      logo: 'https://acme.test/logo.png',
      sso: true,
      ai: true,
      inviteLinks: true,
    });
    expect(data).toMatchObject({
      id: org,
      title: 'Acme Docs',
      emailDomains: ['acme.test', 'docs.acme.test'],
      hostname: 'acme-docs',
      defaultRole: 'edit',
      sso: true,
      ai: true,
      inviteLinks: true,
      urls: { logo: 'https://acme.test/logo.png' },
    });
    expect(data).not.toHaveProperty('defaultContent');
    expect((await app.api().orgs.getOrganizationById(org)).data).toEqual(data);

    // null clears the default role (newcomers are guests) and the logo; absent fields stay.
    const cleared = (await app.api().orgs.updateOrganizationById(org, { defaultRole: null, logo: null }))
      .data;
    expect(cleared.defaultRole).toBeNull();
    expect(cleared.urls.logo).toBeUndefined();
    expect(cleared).toMatchObject({ title: 'Acme Docs', hostname: 'acme-docs', sso: true });

    // Nothing to change: the same organization, and nothing written.
    const head = await logHead(app);
    expect((await app.api().orgs.updateOrganizationById(org, { title: 'Acme Docs' })).data).toEqual(cleared);
    expect(await logHead(app)).toBe(head);
  });

  it('refuses bad settings with a 400 naming the field, and writes nothing', async () => {
    const app = current();
    const org = await addOrganization(app, 'Strict');
    const before = (await app.api().orgs.getOrganizationById(org)).data;
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ title: 'a' }, /title/],
      [{ title: '   ' }, /title/],
      [{ title: 'x'.repeat(256) }, /title/],
      [{ title: 'a\u0007b' }, /title/],
      [{ emailDomains: ['not a domain'] }, /emailDomains/],
      [{ emailDomains: ['bob@acme.test'] }, /emailDomains/],
      [{ emailDomains: ['localhost'] }, /emailDomains/],
      [{ emailDomains: ['acme.test', 'ACME.TEST'] }, /emailDomains/],
      [{ emailDomains: 'acme.test' }, /emailDomains/],
      [{ hostname: 'ab' }, /hostname/],
      [{ hostname: 'x'.repeat(33) }, /hostname/],
      [{ hostname: 'Acme' }, /hostname/],
      [{ hostname: 'acme.docs' }, /hostname/],
      [{ defaultRole: 'owner' }, /defaultRole/],
      [{ defaultContent: { type: 'site', site: 'site1' } }, /defaultContent/],
      [{ defaultContent: { type: 'space', space: 's' } }, /defaultContent/],
      [{ defaultContent: 'site1' }, /defaultContent/],
      [{ logo: 'logo.png' }, /logo/],
      [{ logo: `https://acme.test/${'x'.repeat(2040)}` }, /logo/],
      [{ sso: 'yes' }, /sso/],
      [{ ai: 1 }, /ai/],
      [{ inviteLinks: null }, /inviteLinks/],
      [{ plan: 'free' }, /plan/],
    ];
    for (const [sent, names] of cases) {
      const head = await logHead(app);
      const reply = await app.http('PATCH', `/v1/orgs/${org}`, { body: sent });
      expect({ sent, status: reply.status }).toEqual({ sent, status: 400 });
      expect((reply.body as { error: { message: string } }).error.message).toMatch(names);
      expect(await logHead(app)).toBe(head);
    }
    expect((await app.api().orgs.getOrganizationById(org)).data).toEqual(before);
  });

  it('refuses a hostname another organization has (409)', async () => {
    const app = current();
    const first = await addOrganization(app, 'First host');
    const second = await addOrganization(app, 'Second host');
    await app.api().orgs.updateOrganizationById(first, { hostname: 'taken-host' });
    const reply = await app.http('PATCH', `/v1/orgs/${second}`, { body: { hostname: 'taken-host' } });
    expect(reply.status).toBe(409);
    expect((reply.body as { error: { message: string } }).error.message).toMatch(/hostname/);
    // Its own hostname again is no conflict.
    expect((await app.http('PATCH', `/v1/orgs/${first}`, { body: { hostname: 'taken-host' } })).status).toBe(
      200,
    );
  });

  it('lets only admins update an organization, and records the update in the audit log', async () => {
    const app = current();
    const org = await addOrganization(app, 'Guarded org');
    const editor = await addUser(app, { organizationId: org, role: 'create' });
    const refused = await app.http('PATCH', `/v1/orgs/${org}`, { token: editor.token, body: { ai: true } });
    expect(refused.status).toBe(403);
    const outsider = await addUser(app);
    const hidden = await app.http('PATCH', `/v1/orgs/${org}`, { token: outsider.token, body: { ai: true } });
    expect(hidden.status).toBe(404);

    await app.api().orgs.updateOrganizationById(org, { title: 'Guarded renamed' });
    const events = (await app.http('GET', `/v1/orgs/${org}/audit-events?limit=100`)).body as {
      items: { action: string; target?: { id: string; label?: string } }[];
    };
    expect(events.items).toContainEqual(
      expect.objectContaining({
        action: 'organization.updated',
        target: expect.objectContaining({ id: org }),
      }),
    );
  });

  it("lists the caller's organizations of an email domain, and no other", async () => {
    const app = current();
    const mine = await addOrganization(app, 'Domain owner');
    const theirs = await addOrganization(app, 'Domain neighbour');
    await app.api().orgs.updateOrganizationById(mine, { emailDomains: ['shared.test', 'mine.test'] });
    await app.api().orgs.updateOrganizationById(theirs, { emailDomains: ['shared.test'] });
    const member = await addUser(app, { organizationId: mine, role: 'read' });

    const seen = (await app.api(member.token).emailDomains.getOrganizationsForEmailDomain('Shared.TEST'))
      .data;
    expect(seen.organizations.map((o) => o.id)).toEqual([mine]);
    expect(seen.organizations[0].permissions.admin).toBe(false);
    const admin = (await app.api().emailDomains.getOrganizationsForEmailDomain('shared.test')).data;
    expect(admin.organizations.map((o) => o.id).sort()).toEqual([mine, theirs].sort());

    // A domain removed from an organization no longer finds it.
    await app.api().orgs.updateOrganizationById(mine, { emailDomains: ['mine.test'] });
    const after = (await app.api(member.token).emailDomains.getOrganizationsForEmailDomain('shared.test'))
      .data;
    expect(after).toEqual({ organizations: [] });
    const outsider = await addUser(app);
    const none = (await app.api(outsider.token).emailDomains.getOrganizationsForEmailDomain('mine.test'))
      .data;
    expect(none).toEqual({ organizations: [] });

    const bad = await app.http('GET', '/v1/email-domains/not_a_domain/orgs');
    expect(bad.status).toBe(400);
    expect((bad.body as { error: { message: string } }).error.message).toMatch(/emailDomain/);
  });

  it('sets merge rules (none until set) that merges into its spaces which inherit theirs follow', async () => {
    const app = current();
    const org = await addOrganization(app, 'Reviewed docs');
    const reviewer = await addUser(app, { organizationId: org, role: 'review' });
    expect((await app.api().orgs.getOrganizationById(org)).data.mergeRules).toEqual({ type: 'none' });
    const rules = { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] };
    const { data } = await app.api().orgs.updateOrganizationById(org, { mergeRules: rules } as never);
    expect(data.mergeRules).toEqual(rules);
    expect((await app.api().orgs.getOrganizationById(org)).data).toEqual(data);

    const inheriting = (await app.api().orgs.createSpace(org, { title: 'Inherits' })).data;
    expect(inheriting.mergeRules).toEqual({ type: 'inherit' });
    const cr = (await app.api().spaces.createChangeRequest(inheriting.id, { subject: 'Edit' })).data;
    const merge = `/v1/spaces/${inheriting.id}/change-requests/${cr.id}/merge`;
    const blocked = await app.http('POST', merge);
    expect(blocked.status).toBe(409);
    expect((blocked.body as { error: { message: string } }).error.message).toMatch(/approval/);
    await app
      .api(reviewer.token)
      .spaces.submitChangeRequestReview(inheriting.id, cr.id, { status: 'approved' } as never);
    expect((await app.api().spaces.mergeChangeRequest(inheriting.id, cr.id)).data.result).toBe('merge');

    // A space's own rules stand in place of its organization's.
    const own = (await app.api().orgs.createSpace(org, { title: 'Own rules' })).data;
    await app.api().spaces.updateSpaceById(own.id, { mergeRules: { type: 'none' } } as never);
    const free = (await app.api().spaces.createChangeRequest(own.id, {})).data;
    expect((await app.api().spaces.mergeChangeRequest(own.id, free.id)).data.result).toBe('merge');

    // Back to none: the inheriting space merges freely.
    await app.api().orgs.updateOrganizationById(org, { mergeRules: { type: 'none' } } as never);
    const next = (await app.api().spaces.createChangeRequest(inheriting.id, {})).data;
    expect((await app.api().spaces.mergeChangeRequest(inheriting.id, next.id)).data.result).toBe('merge');

    for (const mergeRules of [
      { type: 'inherit' },
      { type: 'rules', rules: [{ rule: 'custom', expression: 'true' }] },
      { type: 'rules', rules: [{ rule: 'require_specific_reviewers' }] },
      { type: 'sometimes' },
      'none',
      null,
    ]) {
      const reply = await app.http('PATCH', `/v1/orgs/${org}`, { body: { mergeRules } });
      expect({ mergeRules, status: reply.status }).toEqual({ mergeRules, status: 400 });
      expect((reply.body as { error: { message: string } }).error.message).toMatch(/^mergeRules/);
    }
  });
});
