import { IdentityService } from '@app/identity/write/identity.commands';
import { type SigningIdentity, signingIdentity } from '@app/sso/domain/certificate.testing';
import { MemberRole, type OrganizationSAMLProvider } from '@gitbook/api';
import { addOrganization, addUser, eventually, SETUP, setupOf, useTestApp } from '../support/app-harness';
import { type AssertionOptions, samlResponse } from '../support/saml-idp';

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
const IDP_ENTITY = 'http://idp.example.test/metadata';

interface Session {
  object: 'sso-session';
  token: string;
  expiresAt: string;
  user: string;
  organization: string;
  relayState: string | null;
}

describe('SAML sign-in over HTTP', () => {
  const current = useTestApp();
  let idp: SigningIdentity;
  let impostor: SigningIdentity;

  beforeAll(async () => {
    const now = Date.now();
    [idp, impostor] = await Promise.all([
      signingIdentity(new Date(now - DAY), new Date(now + 365 * DAY), 'CN=Test IdP'),
      signingIdentity(new Date(now - DAY), new Date(now + 365 * DAY), 'CN=Impostor'),
    ]);
  });

  /** An active provider of the app's organization; its `defaultTeam` a team created for it. */
  async function provider(settings: { defaultRole?: MemberRole | null; defaultTeam?: string } = {}) {
    const app = current();
    const reply = await app.api().orgs.createOrganizationSamlProvider(app.organizationId, {
      label: 'Test IdP',
      entityID: IDP_ENTITY,
      ssoURL: 'https://idp.example.test/sso',
      certificate: idp.certificate,
      ...settings,
    });
    return reply.data as OrganizationSAMLProvider;
  }

  const assertion = (p: OrganizationSAMLProvider, nameID: string, more: Partial<AssertionOptions> = {}) => ({
    issuer: IDP_ENTITY,
    audience: p.service.entityID,
    acsURL: p.service.acsURL,
    nameID,
    ...more,
  });

  /** Posts a response to the provider's assertion consumer service, form-encoded as browsers post it. */
  async function post(providerId: string, fields: Record<string, string>) {
    const reply = await fetch(`${current().url}/v1/sso/saml/${providerId}/acs`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    return { status: reply.status, body: (await reply.json()) as Session & { error: { message: string } } };
  }

  const signIn = (p: OrganizationSAMLProvider, nameID: string, more: Partial<AssertionOptions> = {}) =>
    post(p.id, { SAMLResponse: samlResponse(idp, assertion(p, nameID, more)), RelayState: '/home' });

  const member = (userId: string) =>
    current().http('GET', `/v1/orgs/${current().organizationId}/members/${userId}`);

  it('signs a newcomer in: a user, a member with the default role and team, and a token that works at once', async () => {
    const app = current();
    const org = app.organizationId;
    const team = (await app.api().orgs.createOrganizationTeam(org, { title: 'Engineering' })).data;
    const p = await provider({ defaultRole: MemberRole.Edit, defaultTeam: team.id });
    const email = 'Ada.Lovelace@Example.test';
    const before = app.clock.now();
    const reply = await signIn(p, email, { attributes: { firstName: 'Ada', lastName: 'Lovelace' } });
    expect(reply.status).toBe(200);
    const session = reply.body;
    expect(session).toEqual({
      object: 'sso-session',
      token: expect.stringMatching(/^.{32,}$/),
      expiresAt: expect.any(String),
      user: expect.any(String),
      organization: org,
      relayState: '/home',
    });
    const expires = Date.parse(session.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + 12 * HOUR);
    expect(expires).toBeLessThanOrEqual(app.clock.now() + 12 * HOUR);
    // The token works on the next request, and the newcomer is an SSO member with the default role.
    const me = await app.api(session.token).orgs.getMemberInOrganizationById(org, session.user);
    expect(me.data).toMatchObject({
      role: 'edit',
      sso: true,
      user: { displayName: 'Ada Lovelace', email: 'ada.lovelace@example.test' },
    });
    await eventually(async () => {
      const { data } = await app.api().orgs.listTeamMembersInOrganizationById(org, team.id, {});
      return data.items.some((m) => m.organization.user.id === session.user);
    });
    const audit = await app.http('GET', `/v1/orgs/${org}/audit-events?action=saml_sign_in.accepted`);
    expect(JSON.stringify(audit.body)).toContain(session.user);
  });

  it('signs an existing member in with their role kept, and refuses the same assertion twice', async () => {
    const app = current();
    const org = app.organizationId;
    const p = await provider({ defaultRole: MemberRole.Read });
    const { userId } = await addUser(app, { organizationId: org, role: 'admin' });
    const email = ((await member(userId)).body as { user: { email: string } }).user.email;
    const response = samlResponse(idp, assertion(p, email));
    const first = await post(p.id, { SAMLResponse: response });
    expect(first.status).toBe(200);
    expect(first.body.user).toBe(userId);
    expect(first.body.relayState).toBeNull();
    expect((await member(userId)).body).toMatchObject({ role: 'admin', sso: true });
    const replayed = await post(p.id, { SAMLResponse: response });
    expect(replayed.status).toBe(401);
    expect(replayed.body.error.message).toMatch(/already used/);
    // A fresh assertion signs them in again.
    expect((await signIn(p, email)).status).toBe(200);
  });

  it("limits a sign-in's token to the provider's organization, whatever else its user belongs to", async () => {
    const app = current();
    const org = app.organizationId;
    // A user who administers this organization and another one.
    const other = await addOrganization(app, 'Elsewhere');
    const { userId, token } = await addUser(app, { organizationId: org, role: 'admin' });
    const email = ((await member(userId)).body as { user: { email: string } }).user.email;
    const invited = await app.http('POST', `/v1/orgs/${other}/invites`, {
      body: { emails: [email], role: 'admin' },
    });
    expect(invited.status).toBeLessThan(300);
    const p = await provider({ defaultRole: MemberRole.Read });
    const { body } = await signIn(p, email);
    expect(body.user).toBe(userId);
    const as = (method: string, path: string, json?: unknown) =>
      app.http(method, path, { token: body.token, ...(json === undefined ? {} : { body: json }) });
    const listed = (await as('GET', '/v1/orgs')).body as { items: { id: string }[] };
    expect(listed.items.map((o) => o.id)).toEqual([org]);
    expect((await as('GET', `/v1/orgs/${other}`)).status).toBe(404);
    expect((await as('POST', `/v1/orgs/${other}/spaces`, { title: 'Not here' })).status).toBe(404);
    const space = (await app.http('POST', `/v1/orgs/${other}/spaces`, { token, body: { title: 'There' } }))
      .body as { id: string };
    expect((await as('GET', `/v1/spaces/${space.id}`)).status).toBe(404);
    const here = (await as('POST', `/v1/orgs/${org}/spaces`, { title: 'Here' })).body as { id: string };
    expect((await as('POST', `/v1/spaces/${here.id}/transfer`, { organization: other })).status).toBe(404);
    // The user's own token still acts in both.
    expect((await app.http('GET', `/v1/orgs/${other}`, { token })).status).toBe(200);
    expect((await app.http('GET', `/v1/spaces/${space.id}`, { token })).status).toBe(200);
  });

  it("does not let a sign-in's token join another organization, even with its invite links", async () => {
    const app = current();
    const other = await addOrganization(app, 'Inviting');
    const toOrganization = (await app.api().orgs.createOrganizationInvite(other, { role: MemberRole.Admin }))
      .data as { id: string };
    const space = (await app.api().orgs.createSpace(other, { title: 'Theirs' })).data;
    const toSpace = (
      await app.http('POST', `/v1/orgs/${other}/link-invites`, { body: { level: 'admin', space: space.id } })
    ).body as { id: string };
    const p = await provider({ defaultRole: MemberRole.Read });
    const { body } = await signIn(p, 'joiner@example.test');
    for (const link of [toOrganization, toSpace]) {
      const joined = await app.http('POST', `/v1/orgs/${other}/invites/${link.id}`, { token: body.token });
      expect(joined.status).toBe(404);
    }
    expect((await app.http('GET', `/v1/orgs/${other}/members/${body.user}`)).status).toBe(404);
    expect((await app.api().spaces.listUserPermissionsInSpace(space.id)).data.count).toBe(0);
    // A token of the same user that is not limited joins as anyone would.
    const setup = setupOf(app);
    const own = await setup.services.get(IdentityService).issueToken(body.user, 'own', SETUP);
    await setup.waitFor(own.position);
    const joined = await app.http('POST', `/v1/orgs/${other}/invites/${toOrganization.id}`, {
      token: own.token,
    });
    expect(joined.status).toBe(200);
    // The sign-in's token still acts in its own organization only.
    expect((await app.http('GET', `/v1/orgs/${other}`, { token: body.token })).status).toBe(404);
  });

  it('admits a newcomer as a guest when the provider has no default role', async () => {
    const p = await provider({ defaultRole: null });
    const reply = await signIn(p, 'guest.person@example.test');
    expect(reply.status).toBe(200);
    expect((await member(reply.body.user)).body).toMatchObject({ role: null, sso: true });
  });

  it('refuses forged, unsigned, misdirected and stale responses with a 401, admitting nobody', async () => {
    const app = current();
    const p = await provider({ defaultRole: MemberRole.Read });
    const before = (await app.http('GET', `/v1/orgs/${app.organizationId}/members?limit=1000`)).body;
    const now = Date.now();
    const cases: [string, string][] = [
      ['signed by another key', samlResponse(impostor, assertion(p, 'forged@example.test'))],
      ['unsigned', samlResponse(idp, assertion(p, 'unsigned@example.test', { sign: false }))],
      [
        'for another service',
        samlResponse(idp, assertion(p, 'elsewhere@example.test', { audience: 'https://other.test' })),
      ],
      [
        'from another issuer',
        samlResponse(idp, assertion(p, 'issuer@example.test', { issuer: 'http://evil.test' })),
      ],
      [
        'expired',
        samlResponse(
          idp,
          assertion(p, 'late@example.test', {
            issuedAt: new Date(now - 20 * 60_000),
            notOnOrAfter: new Date(now - 10 * 60_000),
          }),
        ),
      ],
      [
        'too old for its long validity',
        samlResponse(
          idp,
          assertion(p, 'old@example.test', {
            issuedAt: new Date(now - 30 * 60_000),
            notOnOrAfter: new Date(now + HOUR),
          }),
        ),
      ],
      [
        'without conditions',
        samlResponse(idp, assertion(p, 'unconditional@example.test', { withoutConditions: true })),
      ],
      [
        'posted to another service (Destination)',
        samlResponse(idp, assertion(p, 'dest@example.test', { destination: 'https://other.test/acs' })),
      ],
      [
        'confirmed for another recipient',
        samlResponse(idp, assertion(p, 'recipient@example.test', { recipient: 'https://other.test/acs' })),
      ],
      [
        'tampered after signing',
        Buffer.from(
          Buffer.from(samlResponse(idp, assertion(p, 'tamper@example.test')), 'base64')
            .toString()
            .replace('tamper@example.test', 'admin@example.test'),
        ).toString('base64'),
      ],
    ];
    for (const [what, response] of cases) {
      const reply = await post(p.id, { SAMLResponse: response });
      expect({ what, status: reply.status }).toEqual({ what, status: 401 });
      expect(reply.body.error.message).toMatch(/^SAMLResponse: /);
      // Never the text of an internal error.
      expect({ what, message: reply.body.error.message }).not.toEqual({
        what,
        message: expect.stringMatching(/TypeError|Cannot read|undefined|is not a function/),
      });
    }
    expect((await app.http('GET', `/v1/orgs/${app.organizationId}/members?limit=1000`)).body).toEqual(before);
  });

  it('refuses a body without a response or with one that is not base64, naming the field', async () => {
    const p = await provider();
    const missing = await post(p.id, { RelayState: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/SAMLResponse/);
    const garbage = await post(p.id, { SAMLResponse: '<xml/>' });
    expect(garbage.status).toBe(400);
    expect(garbage.body.error.message).toMatch(/SAMLResponse must be base64/);
    const notXml = await post(p.id, { SAMLResponse: Buffer.from('hello').toString('base64') });
    expect(notXml.status).toBe(401);
  });

  it('answers 404 for a pending provider, and for a deleted one at once', async () => {
    const app = current();
    const pending = (
      await app.api().orgs.createOrganizationSamlProvider(app.organizationId, { label: 'Pending' })
    ).data as OrganizationSAMLProvider;
    const p = await provider();
    const response = samlResponse(idp, assertion(p, 'deleted@example.test'));
    expect((await post(pending.id, { SAMLResponse: response })).status).toBe(404);
    expect((await app.http('GET', `/v1/sso/saml/${pending.id}/start`, { token: null })).status).toBe(404);
    await app.api().orgs.deleteOrganizationSamlProvider(app.organizationId, p.id);
    expect((await post(p.id, { SAMLResponse: response })).status).toBe(404);
  });

  it('sends the browser to the identity provider with a request, and serves its metadata', async () => {
    const app = current();
    const p = await provider();
    const start = await fetch(`${app.url}/v1/sso/saml/${p.id}/start?relayState=%2Fdocs`, {
      redirect: 'manual',
    });
    expect(start.status).toBe(302);
    const location = new URL(start.headers.get('location') as string);
    expect(`${location.origin}${location.pathname}`).toBe('https://idp.example.test/sso');
    expect(location.searchParams.get('SAMLRequest')).toMatch(/^[A-Za-z0-9+/=]+$/);
    expect(location.searchParams.get('RelayState')).toBe('/docs');
    const metadata = await fetch(`${app.url}/v1/sso/saml/${p.id}/metadata`);
    expect(metadata.status).toBe(200);
    expect(metadata.headers.get('content-type')).toMatch(/samlmetadata\+xml/);
    const xml = await metadata.text();
    expect(xml).toContain(`entityID="${p.service.entityID}"`);
    expect(xml).toContain(`Location="${p.service.acsURL}"`);
  });

  it('issues a token that stops working when the session ends', async () => {
    const app = current();
    const p = await provider({ defaultRole: MemberRole.Read });
    const { body } = await signIn(p, 'short.session@example.test');
    expect((await app.http('GET', `/v1/orgs/${app.organizationId}`, { token: body.token })).status).toBe(200);
    app.clock.advance(12 * HOUR);
    expect((await app.http('GET', `/v1/orgs/${app.organizationId}`, { token: body.token })).status).toBe(401);
    expect((await app.http('GET', `/v1/orgs/${app.organizationId}`)).status).toBe(200);
  });
});
