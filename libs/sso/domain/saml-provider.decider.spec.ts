import { fold } from '@app/platform/domain/decider';
import { spec } from '@app/platform/domain/decider.testing';
import { readCertificate } from './certificate';
import { privateKeyPem, selfSignedCertificate } from './certificate.testing';
import {
  type SamlProviderCommand,
  type SamlProviderEvent,
  samlProviderDecider,
  samlProviderStream,
} from './saml-provider.decider';

const t0 = Date.parse('2026-01-01T00:00:00Z');
const t1 = t0 + 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const day = 24 * 60 * 60 * 1000;

type Create = Extract<SamlProviderCommand, { type: 'CreateSamlProvider' }>;
type Created = Extract<SamlProviderEvent, { type: 'SamlProviderCreated' }>;

const create = (input: Create['input'] = { label: 'Okta' }, overrides: Partial<Create> = {}): Create => ({
  type: 'CreateSamlProvider',
  samlProviderId: 'p1',
  organization: 'org1',
  input,
  at: t0,
  ...overrides,
});

const created = (data: Partial<Created['data']> = {}): Created => ({
  type: 'SamlProviderCreated',
  data: {
    samlProviderId: 'p1',
    organization: 'org1',
    label: 'Okta',
    entityID: null,
    ssoURL: null,
    certificate: null,
    defaultTeam: null,
    defaultRole: null,
    createdAt: iso(t0),
    ...data,
  },
});

const updated = (changes: Record<string, unknown>, at = t1): SamlProviderEvent => ({
  type: 'SamlProviderUpdated',
  data: { samlProviderId: 'p1', organization: 'org1', changes, updatedAt: iso(at) },
});

const deletedEvent = (at = t1): SamlProviderEvent => ({
  type: 'SamlProviderDeleted',
  data: { samlProviderId: 'p1', organization: 'org1', deletedAt: iso(at) },
});

const update = (input: Create['input'], organization = 'org1'): SamlProviderCommand => ({
  type: 'UpdateSamlProvider',
  organization,
  input,
  at: t1,
});

const provider = spec(samlProviderDecider);
const active = [created()];
const deleted = [created(), deletedEvent()];

describe('SAML provider decider', () => {
  let pem: string;
  let expired: string;
  let notYet: string;

  beforeAll(async () => {
    pem = await selfSignedCertificate(new Date(t0 - day), new Date(t0 + 365 * day));
    expired = await selfSignedCertificate(new Date(t0 - 20 * day), new Date(t0 - 10 * day));
    notYet = await selfSignedCertificate(new Date(t0 + 10 * day), new Date(t0 + 20 * day));
  });

  it('names the stream after the provider', () => {
    expect(samlProviderStream('p1')).toBe('saml-provider-p1');
  });

  describe('CreateSamlProvider', () => {
    it('creates a provider with only a label, every other setting unset', () => {
      const state = provider.when(create()).thenEmits([created()]);
      expect(state).toMatchObject({
        status: 'active',
        samlProviderId: 'p1',
        organization: 'org1',
        label: 'Okta',
      });
      expect(state).not.toHaveProperty('createdAt');
    });

    it('creates a fully configured provider, its certificate normalized', () => {
      const input = {
        label: 'Okta',
        entityID: 'http://www.okta.com/exk1',
        ssoURL: 'https://example.okta.com/app/sso/saml',
        certificate: `  ${pem.replace(/\n/g, '\r\n')}`,
        defaultTeam: 'team1',
        defaultRole: 'edit' as const,
      };
      provider.when(create(input)).thenEmits([
        created({
          entityID: input.entityID,
          ssoURL: input.ssoURL,
          certificate: readCertificate(pem, t0),
          defaultTeam: 'team1',
          defaultRole: 'edit',
        }),
      ]);
    });

    it('treats empty entity id, sign-in URL and certificate as unset', () => {
      provider
        .when(create({ label: 'Okta', entityID: '', ssoURL: '', certificate: ' \n' }))
        .thenEmits([created()]);
    });

    it('rejects creating a provider that already exists', () => {
      provider
        .given(active)
        .when(create())
        .thenThrows('conflict', /already exists/);
    });

    it('rejects creating a provider that was deleted', () => {
      provider
        .given(deleted)
        .when(create())
        .thenThrows('conflict', /already exists/);
    });

    it('rejects a provider without a label, or with an empty or over-long one', () => {
      provider.when(create({})).thenThrows('invalid', /^label/);
      provider.when(create({ label: '' })).thenThrows('invalid', /^label/);
      provider.when(create({ label: 'x'.repeat(31) })).thenThrows('invalid', /^label/);
    });

    it('rejects a sign-in URL that is not an absolute http(s) URL', () => {
      provider.when(create({ label: 'Okta', ssoURL: 'example.com/sso' })).thenThrows('invalid', /^ssoURL/);
      provider
        .when(create({ label: 'Okta', ssoURL: 'ftp://example.com/sso' }))
        .thenThrows('invalid', /^ssoURL/);
    });

    it('rejects a malformed certificate', () => {
      provider
        .when(create({ label: 'Okta', certificate: 'not a certificate' }))
        .thenThrows('invalid', /^certificate: /);
    });

    it('rejects an expired certificate, judged at the time of the command', () => {
      provider
        .when(create({ label: 'Okta', certificate: expired }))
        .thenThrows('invalid', /^certificate: expired/);
    });

    it('rejects a certificate not valid yet', () => {
      provider
        .when(create({ label: 'Okta', certificate: notYet }))
        .thenThrows('invalid', /^certificate: not valid before/);
    });

    it('rejects a private key given as the certificate', () => {
      provider
        .when(create({ label: 'Okta', certificate: privateKeyPem() }))
        .thenThrows('invalid', /^certificate: .*private key/);
    });
  });

  describe('UpdateSamlProvider', () => {
    it('emits only the settings that change', () => {
      const state = provider
        .given(active)
        .when(update({ label: 'Okta', ssoURL: 'https://idp.example.com/sso', defaultRole: null }))
        .thenEmits([updated({ ssoURL: 'https://idp.example.com/sso' })]);
      expect(state).toMatchObject({ label: 'Okta', ssoURL: 'https://idp.example.com/sso' });
    });

    it('sets a certificate, normalized, and clears it with an empty string', () => {
      const normalized = readCertificate(pem, t1);
      const withCertificate = [...active, updated({ certificate: normalized })];
      provider
        .given(active)
        .when(update({ certificate: pem }))
        .thenEmits([updated({ certificate: normalized })]);
      const state = provider
        .given(withCertificate)
        .when(update({ certificate: '' }))
        .thenEmits([updated({ certificate: null })]);
      expect(state).toMatchObject({ certificate: null });
    });

    it('sets and clears the default role', () => {
      provider
        .given(active)
        .when(update({ defaultRole: 'read' }))
        .thenEmits([updated({ defaultRole: 'read' })]);
      provider
        .given([...active, updated({ defaultRole: 'read' })])
        .when(update({ defaultRole: null }))
        .thenEmits([updated({ defaultRole: null })]);
    });

    it('emits nothing when nothing changes', () => {
      provider
        .given(active)
        .when(update({ label: 'Okta', entityID: '' }))
        .thenNothing();
      provider.given(active).when(update({})).thenNothing();
    });

    it('rejects updating a provider that does not exist', () => {
      provider.when(update({ label: 'x' })).thenThrows('not_found');
    });

    it('rejects updating a deleted provider', () => {
      provider
        .given(deleted)
        .when(update({ label: 'x' }))
        .thenThrows('not_found');
    });

    it('rejects updating a provider through another organization', () => {
      provider
        .given(active)
        .when(update({ label: 'x' }, 'org2'))
        .thenThrows('not_found');
    });

    it('rejects an empty label', () => {
      provider
        .given(active)
        .when(update({ label: '' }))
        .thenThrows('invalid', /^label/);
    });

    it('rejects a bad sign-in URL', () => {
      provider
        .given(active)
        .when(update({ ssoURL: 'not a url' }))
        .thenThrows('invalid', /^ssoURL/);
    });

    it('rejects a bad certificate, expired or not yet valid', () => {
      provider
        .given(active)
        .when(update({ certificate: '-----BEGIN CERTIFICATE-----' }))
        .thenThrows('invalid', /^certificate/);
      provider
        .given(active)
        .when(update({ certificate: expired }))
        .thenThrows('invalid', /^certificate: expired/);
      provider
        .given(active)
        .when(update({ certificate: notYet }))
        .thenThrows('invalid', /^certificate: not valid/);
    });
  });

  describe('DeleteSamlProvider', () => {
    it('deletes a provider, naming its organization', () => {
      const state = provider
        .given(active)
        .when({ type: 'DeleteSamlProvider', organization: 'org1', at: t1 })
        .thenEmits([deletedEvent()]);
      expect(state).toStrictEqual({ status: 'deleted', samlProviderId: 'p1', organization: 'org1' });
    });

    it('rejects deleting a provider deleted already', () => {
      provider
        .given(deleted)
        .when({ type: 'DeleteSamlProvider', organization: 'org1', at: t1 })
        .thenThrows('not_found');
    });

    it('rejects deleting a provider that does not exist', () => {
      provider.when({ type: 'DeleteSamlProvider', organization: 'org1', at: t1 }).thenThrows('not_found');
    });

    it('rejects deleting a provider through another organization', () => {
      provider
        .given(active)
        .when({ type: 'DeleteSamlProvider', organization: 'org2', at: t1 })
        .thenThrows('not_found');
      provider
        .given(deleted)
        .when({ type: 'DeleteSamlProvider', organization: 'org2', at: t1 })
        .thenThrows('not_found');
    });
  });

  describe('evolve', () => {
    it('ignores updates of a deleted provider', () => {
      expect(fold(samlProviderDecider, [...deleted, updated({ label: 'x' })])).toStrictEqual({
        status: 'deleted',
        samlProviderId: 'p1',
        organization: 'org1',
      });
    });
  });
});
