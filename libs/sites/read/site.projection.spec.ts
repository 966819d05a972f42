import { givenProjection, recorderOf } from '@app/platform/projector/projection.testing';
import { type SiteEvent, siteStream } from '../domain/site.decider';
import { SITES, siteProjection } from './site.projection';

const recorded = recorderOf<SiteEvent>();
const inStream = { stream: siteStream('w1') };
const ref = { siteId: 'w1', organization: 'o1' };
const created = () =>
  recorded(
    'SiteCreated',
    {
      ...ref,
      title: 'Docs',
      type: 'basic',
      visibility: 'public',
      adaptiveContent: false,
      agentsContext: 'included',
      createdAt: '2026-01-01T00:00:00.000Z',
    },
    inStream,
  );
const updated = () =>
  recorded(
    'SiteUpdated',
    {
      ...ref,
      changes: { title: 'Guides', proxy: 'company.com/docs' },
      updatedAt: '2026-01-02T00:00:00.000Z',
    },
    inStream,
  );
const published = () =>
  recorded('SitePublished', { ...ref, publishedAt: '2026-01-03T00:00:00.000Z' }, inStream);
const proxyRemoved = () =>
  recorded(
    'SiteUpdated',
    { ...ref, changes: { proxy: null }, updatedAt: '2026-01-04T00:00:00.000Z' },
    inStream,
  );

const sites = givenProjection(siteProjection);

const doc = {
  id: 'w1',
  organization: 'o1',
  title: 'Guides',
  type: 'basic',
  visibility: 'public',
  adaptiveContent: false,
  agentsContext: 'included',
  siteSpaces: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
} as const;

describe('site projection', () => {
  it('records a site, its changes and its publication, with its stream revision as ETag', async () => {
    await sites.given(created(), updated(), published()).thenDocuments(SITES, [
      {
        ...doc,
        proxy: 'company.com/docs',
        published: true,
        updatedAt: '2026-01-03T00:00:00.000Z',
        streamRevision: 2,
      },
    ]);
  });

  it('removes a setting changed to null', async () => {
    await sites
      .given(created(), updated(), proxyRemoved())
      .thenDocuments(SITES, [
        { ...doc, published: false, updatedAt: '2026-01-04T00:00:00.000Z', streamRevision: 2 },
      ]);
  });

  it('keeps its customization and when it was set', async () => {
    const customized = recorded(
      'SiteCustomizationUpdated',
      { ...ref, customization: { title: 'Docs' }, updatedAt: '2026-01-05T00:00:00.000Z' },
      inStream,
    );
    await sites.given(created(), customized).thenDocuments(SITES, [
      {
        ...doc,
        title: 'Docs',
        published: false,
        customization: { settings: { title: 'Docs' }, updatedAt: '2026-01-05T00:00:00.000Z' },
        updatedAt: '2026-01-01T00:00:00.000Z',
        streamRevision: 1,
      },
    ]);
  });

  it('keeps its adaptive schema (as JSON) and when it was set, and rebuilds to the same views', async () => {
    const jsonSchema = {
      $schema: 'http://json-schema.org/draft-07/schema#' as const,
      type: 'object' as const,
      properties: { 'beta.tester': { type: 'boolean' as const, description: 'Beta testers' } },
      additionalProperties: false as const,
    };
    const replaced = recorded(
      'SiteAdaptiveSchemaReplaced',
      { ...ref, jsonSchema, updatedAt: '2026-01-06T00:00:00.000Z' },
      inStream,
    );
    const scenario = sites.given(created(), replaced);
    await scenario.thenDocuments(SITES, [
      {
        ...doc,
        title: 'Docs',
        published: false,
        adaptiveSchema: { json: JSON.stringify(jsonSchema), updatedAt: '2026-01-06T00:00:00.000Z' },
        updatedAt: '2026-01-01T00:00:00.000Z',
        streamRevision: 1,
      },
    ]);
    await scenario.thenReplayChangesNothing();
    await scenario.thenRebuildMatches();
  });

  it('forgets a deleted site', async () => {
    const deleted = recorded('SiteDeleted', { ...ref, deletedAt: '2026-01-05T00:00:00.000Z' }, inStream);
    await sites.given(created(), deleted).thenDocuments(SITES, []);
  });

  it('changes nothing when replayed, and rebuilds to the same views', async () => {
    const scenario = sites.given(created(), updated(), published());
    await scenario.thenReplayChangesNothing();
    await scenario.thenRebuildMatches();
  });
});
