import { givenProjection, recorderOf } from '@app/platform/projector/projection.testing';
import { type SamlProviderEvent, samlProviderStream } from '../domain/saml-provider.decider';
import { SAML_PROVIDERS, type SamlProviderDoc, samlProviderProjection } from './saml-provider.projection';

const recorded = recorderOf<SamlProviderEvent>();
const t = (day: number) => `2026-01-${String(day).padStart(2, '0')}T00:00:00.000Z`;

const created = (id: string, organization = 'o1') =>
  recorded(
    'SamlProviderCreated',
    {
      samlProviderId: id,
      organization,
      label: `IdP ${id}`,
      entityID: null,
      ssoURL: null,
      certificate: null,
      defaultTeam: null,
      defaultRole: null,
      createdAt: t(1),
    },
    { stream: samlProviderStream(id) },
  );

const updated = (id: string, changes: Partial<SamlProviderDoc>, day: number) =>
  recorded(
    'SamlProviderUpdated',
    { samlProviderId: id, organization: 'o1', changes, updatedAt: t(day) },
    { stream: samlProviderStream(id) },
  );

const deleted = (id: string, day: number) =>
  recorded(
    'SamlProviderDeleted',
    { samlProviderId: id, organization: 'o1', deletedAt: t(day) },
    { stream: samlProviderStream(id) },
  );

/** The document `created` makes, with what a test changes. */
const doc = (id: string, changes: Partial<SamlProviderDoc> = {}): SamlProviderDoc => ({
  id,
  organization: 'o1',
  label: `IdP ${id}`,
  entityID: null,
  ssoURL: null,
  certificate: null,
  defaultTeam: null,
  defaultRole: null,
  createdAt: t(1),
  updatedAt: t(1),
  streamRevision: 0,
  ...changes,
});

const providers = givenProjection(samlProviderProjection);

describe('SAML providers projection', () => {
  it('records a created provider, its stream revision as its ETag', async () => {
    await providers.given(created('p1')).thenDocuments(SAML_PROVIDERS, [doc('p1')]);
  });

  it('applies an update to the settings it changes', async () => {
    const changes = { label: 'Okta', ssoURL: 'https://idp.example.com/sso', defaultRole: 'read' as const };
    await providers
      .given(created('p1'), updated('p1', changes, 2))
      .thenDocuments(SAML_PROVIDERS, [doc('p1', { ...changes, updatedAt: t(2), streamRevision: 1 })]);
  });

  it('removes a deleted provider, leaving the others', async () => {
    await providers
      .given(created('p1'), created('p2', 'o2'), deleted('p1', 3))
      .thenDocuments(SAML_PROVIDERS, [doc('p2', { organization: 'o2' })]);
  });

  it('changes nothing when the events are replayed, and a rebuild gives the same views', async () => {
    const scenario = providers.given(
      created('p1'),
      created('p2'),
      updated('p1', { certificate: 'PEM', entityID: 'urn:idp' }, 2),
      updated('p2', { defaultTeam: 'team1' }, 3),
      deleted('p2', 4),
      created('p3', 'o2'),
      updated('p1', { certificate: null }, 5),
    );
    await scenario.thenDocuments(SAML_PROVIDERS, [
      doc('p1', { entityID: 'urn:idp', certificate: null, updatedAt: t(5), streamRevision: 2 }),
      doc('p3', { organization: 'o2' }),
    ]);
    await scenario.thenReplayChangesNothing();
    await scenario.thenRebuildMatches();
  });
});
