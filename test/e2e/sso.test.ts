import { X509Certificate } from 'node:crypto';
import {
  certificateRequest,
  privateKeyPem,
  selfSignedCertificate,
} from '@app/sso/domain/certificate.testing';
import { type GitBookAPI, MemberRole, type OrganizationSAMLProvider } from '@gitbook/api';
import { addOrganization, addUser, useTestApp } from '../support/app-harness';

const DAY = 24 * 60 * 60 * 1000;
type CreateBody = Parameters<GitBookAPI['orgs']['createOrganizationSamlProvider']>[1];
type Envelope = { error: { code: number; message: string } };

describe('SSO over HTTP', () => {
  const current = useTestApp();
  let pem: string;

  beforeAll(async () => {
    const now = Date.now();
    pem = await selfSignedCertificate(new Date(now - DAY), new Date(now + 3650 * DAY), 'CN=Okta');
  });

  const configured = () => ({
    label: 'Okta',
    entityID: 'http://www.okta.com/exk1abc',
    ssoURL: 'https://example.okta.com/app/example/exk1abc/sso/saml',
    certificate: pem,
  });

  const create = async (body: CreateBody, org = current().organizationId) => {
    const reply = await current().api().orgs.createOrganizationSamlProvider(org, body);
    expect(reply.status).toBe(201);
    return reply.data as OrganizationSAMLProvider;
  };

  it('creates a pending provider from a label, with the service provider URLs derived from its id', async () => {
    const app = current();
    const org = app.organizationId;
    const created = await create({ label: 'Pending IdP' });
    const base = `http://docs.test/v1/sso/saml/${created.id}`;
    expect(created).toEqual({
      object: 'saml-provider',
      id: created.id,
      label: 'Pending IdP',
      ssoURL: '',
      entityID: '',
      certificate: '',
      defaultRole: null,
      createdAt: expect.any(String),
      status: 'pending',
      service: { acsURL: `${base}/acs`, startURL: `${base}/start`, entityID: `${base}/metadata` },
      urls: { location: `http://docs.test/v1/orgs/${org}/saml/${created.id}` },
    });
    const { data } = await app.api().orgs.getOrganizationSamlProviderById(org, created.id);
    expect(data).toEqual(created);
  });

  it('creates an active provider, its certificate normalized, listed and offered for sign-in', async () => {
    const app = current();
    const org = app.organizationId;
    const team = (await app.api().orgs.createOrganizationTeam(org, { title: 'Sign-ins' })).data;
    const created = await create({
      ...configured(),
      certificate: `\n${pem.replace(/\n/g, '\r\n')}\n`,
      defaultTeam: team.id,
      defaultRole: MemberRole.Edit,
    });
    const { certificate: _given, ...settings } = configured();
    expect(created).toMatchObject({ ...settings, status: 'active', defaultRole: 'edit' });
    expect(created.certificate).toBe(new X509Certificate(pem).toString());
    const pending = await create({ label: 'Not ready' });
    const list = await app.api().orgs.listSamlProvidersInOrganizationById(org, { limit: 1000 });
    expect(list.data.items.map((p) => p.id)).toEqual(expect.arrayContaining([created.id, pending.id]));
    expect(list.data.items.find((p) => p.id === created.id)).toEqual(created);
    const logins = await app.api().orgs.listSsoProviderLoginsInOrganization(org);
    expect(logins.data.items).toContainEqual({
      id: created.id,
      label: 'Okta',
      startURL: created.service?.startURL,
    });
    expect(logins.data.items.map((l) => l.id)).not.toContain(pending.id);
  });

  it('pages the providers of an organization', async () => {
    const app = current();
    const org = await addOrganization(app, 'Paged SSO');
    const ids = [];
    for (const label of ['A', 'B', 'C']) ids.push((await create({ label }, org)).id);
    const first = await app.api().orgs.listSamlProvidersInOrganizationById(org, { limit: 2 });
    expect(first.data.items).toHaveLength(2);
    expect(first.data.next?.page).toBeDefined();
    const second = await app
      .api()
      .orgs.listSamlProvidersInOrganizationById(org, { limit: 2, page: first.data.next?.page });
    expect([...first.data.items, ...second.data.items].map((p) => p.id).sort()).toEqual(ids.sort());
  });

  it('updates settings; the response and a later GET agree; an empty string clears a setting', async () => {
    const app = current();
    const org = app.organizationId;
    const created = await create({ label: 'Before' });
    const { data } = await app.api().orgs.updateOrganizationSamlProvider(org, created.id, {
      ...configured(),
      label: 'After',
      defaultRole: MemberRole.Read,
    });
    expect(data).toMatchObject({
      label: 'After',
      status: 'active',
      defaultRole: 'read',
      createdAt: created.createdAt,
    });
    expect((await app.api().orgs.getOrganizationSamlProviderById(org, created.id)).data).toEqual(data);
    const cleared = await app.api().orgs.updateOrganizationSamlProvider(org, created.id, {
      certificate: '',
      defaultRole: null,
    });
    expect(cleared.data).toMatchObject({
      certificate: '',
      status: 'pending',
      defaultRole: null,
      label: 'After',
    });
  });

  it('refuses bad certificates with a 400 naming the field, changing nothing', async () => {
    const app = current();
    const org = app.organizationId;
    const created = await create({ label: 'Strict' });
    const now = app.clock.now();
    const cases: [string, RegExp][] = [
      ['<X509Certificate>none</X509Certificate>', /not a PEM certificate/],
      ['bm90IGEgY2VydGlmaWNhdGU=', /well-formed/],
      ['-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----', /well-formed/],
      [await selfSignedCertificate(new Date(now - 30 * DAY), new Date(now - DAY)), /expired on/],
      [await selfSignedCertificate(new Date(now + DAY), new Date(now + 30 * DAY)), /not valid before/],
      [privateKeyPem(), /private key/],
      [await certificateRequest(), /certificate signing request/],
      [`${pem}${pem}`, /one certificate/],
    ];
    const head = await app.built.storage.events.headPosition();
    for (const [certificate, message] of cases) {
      for (const [method, path] of [
        ['POST', `/v1/orgs/${org}/saml`],
        ['PATCH', `/v1/orgs/${org}/saml/${created.id}`],
      ]) {
        const reply = await app.http(method, path, { body: { label: 'Strict', certificate } });
        expect(reply.status).toBe(400);
        const { error } = reply.body as Envelope;
        expect(error.code).toBe(400);
        expect(error.message).toMatch(/^certificate: /);
        expect(error.message).toMatch(message);
      }
    }
    expect(await app.built.storage.events.headPosition()).toBe(head);
    expect((await app.api().orgs.getOrganizationSamlProviderById(org, created.id)).data).toEqual(created);
  });

  it('refuses a bad sign-in URL, label, team id or role, naming the field', async () => {
    const app = current();
    const org = app.organizationId;
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ label: '' }, /^label/],
      [{ label: 'x'.repeat(31) }, /^label/],
      [{ label: 'Line\nbreak' }, /^label/],
      [{ label: 'IdP', ssoURL: 'example.com/sso' }, /^ssoURL/],
      [{ label: 'IdP', ssoURL: 'https://' }, /^ssoURL/],
      [{ label: 'IdP', defaultTeam: 'not a team' }, /^defaultTeam/],
      [{ label: 'IdP', defaultTeam: 'team404' }, /^defaultTeam: no such team/],
      [{ label: 'IdP', defaultRole: 'owner' }, /^defaultRole/],
      [{ label: 'IdP', entityID: 'e'.repeat(1025) }, /^entityID/],
      [{ entityID: 'urn:idp' }, /label/],
    ];
    for (const [body, message] of bad) {
      const reply = await app.http('POST', `/v1/orgs/${org}/saml`, { body });
      expect(reply.status).toBe(400);
      expect((reply.body as Envelope).error.message).toMatch(message);
    }
  });

  it('judges certificates by the server clock', async () => {
    const app = current();
    const org = await addOrganization(app, 'Clocked SSO');
    const now = app.clock.now();
    const shortLived = await selfSignedCertificate(new Date(now - DAY), new Date(now + 2 * DAY));
    const created = await create({ label: 'Short', certificate: shortLived }, org);
    app.clock.advance(3 * DAY);
    const reply = await app.http('PATCH', `/v1/orgs/${org}/saml/${created.id}`, {
      body: { certificate: shortLived },
    });
    // The stored certificate is the same, so nothing would change; a new one given is checked again.
    expect(reply.status).toBe(400);
    expect((reply.body as Envelope).error.message).toMatch(/^certificate: expired/);
  });

  it('deletes a provider (204); it is gone from the list and the sign-in options, and a second delete is a 404', async () => {
    const app = current();
    const org = app.organizationId;
    const created = await create(configured());
    const reply = await app.api().orgs.deleteOrganizationSamlProvider(org, created.id);
    expect(reply.status).toBe(204);
    expect((await app.http('GET', `/v1/orgs/${org}/saml/${created.id}`)).status).toBe(404);
    const list = await app.api().orgs.listSamlProvidersInOrganizationById(org, { limit: 1000 });
    expect(list.data.items.map((p) => p.id)).not.toContain(created.id);
    const logins = await app.api().orgs.listSsoProviderLoginsInOrganization(org);
    expect(logins.data.items.map((l) => l.id)).not.toContain(created.id);
    // Deleted already: not found, as a provider that never was.
    expect((await app.http('DELETE', `/v1/orgs/${org}/saml/${created.id}`)).status).toBe(404);
    expect(
      (await app.http('PATCH', `/v1/orgs/${org}/saml/${created.id}`, { body: { label: 'x' } })).status,
    ).toBe(404);
    expect((await app.http('DELETE', `/v1/orgs/${org}/saml/unknownProvider`)).status).toBe(404);
  });

  it('keeps providers to their organization', async () => {
    const app = current();
    const other = await addOrganization(app, 'Other SSO');
    const theirs = await create({ label: 'Theirs' }, other);
    const org = app.organizationId;
    expect((await app.http('GET', `/v1/orgs/${org}/saml/${theirs.id}`)).status).toBe(404);
    expect(
      (await app.http('PATCH', `/v1/orgs/${org}/saml/${theirs.id}`, { body: { label: 'Mine' } })).status,
    ).toBe(404);
    expect((await app.http('DELETE', `/v1/orgs/${org}/saml/${theirs.id}`)).status).toBe(404);
    expect((await app.api().orgs.getOrganizationSamlProviderById(other, theirs.id)).data.label).toBe(
      'Theirs',
    );
  });

  it('lets only administrators manage providers and read certificates; members read the sign-in options', async () => {
    const app = current();
    const org = app.organizationId;
    const created = await create(configured());
    const creator = await addUser(app, { organizationId: org, role: 'create' });
    for (const [method, path, body] of [
      ['GET', `/v1/orgs/${org}/saml`],
      ['POST', `/v1/orgs/${org}/saml`, { label: 'Mine' }],
      ['GET', `/v1/orgs/${org}/saml/${created.id}`],
      ['PATCH', `/v1/orgs/${org}/saml/${created.id}`, { label: 'Mine' }],
      ['DELETE', `/v1/orgs/${org}/saml/${created.id}`],
    ] as [string, string, unknown?][]) {
      const reply = await app.http(method, path, { token: creator.token, ...(body ? { body } : {}) });
      expect(`${method} ${path} ${reply.status}`).toBe(`${method} ${path} 403`);
    }
    const reader = await addUser(app, { organizationId: org, role: 'read' });
    const logins = await app.api(reader.token).orgs.listSsoProviderLoginsInOrganization(org);
    expect(logins.data.items.map((l) => l.id)).toContain(created.id);
    const stranger = await addUser(app);
    expect((await app.http('GET', `/v1/orgs/${org}/sso`, { token: stranger.token })).status).toBe(404);
  });

  it('records each command in the audit log', async () => {
    const app = current();
    const org = await addOrganization(app, 'Audited SSO');
    const created = await create({ label: 'Audited' }, org);
    await app.api().orgs.updateOrganizationSamlProvider(org, created.id, { label: 'Renamed' });
    await app.api().orgs.deleteOrganizationSamlProvider(org, created.id);
    const reply = await app.http('GET', `/v1/orgs/${org}/audit-events?limit=100`);
    expect(reply.status).toBe(200);
    const items = (reply.body as { items: { action: string; target: { type: string; id: string } }[] }).items;
    const ours = items.filter((e) => e.target.id === created.id).map((e) => e.action);
    expect(ours.sort()).toEqual(['saml_provider.created', 'saml_provider.deleted', 'saml_provider.updated']);
  });
});
