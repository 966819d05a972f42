import { givenProjection, recorderOf } from '@app/platform/projector/projection.testing';
import { type PublishingAuthEvent, publishingAuthStream } from '../domain/publishing-auth.decider';
import type { SiteEvent } from '../domain/site.decider';
import { PUBLISHING_AUTHS, publishingAuthProjection } from './publishing-auth.projection';

const recorded = recorderOf<PublishingAuthEvent | SiteEvent>();
const inStream = { stream: publishingAuthStream('w1') };
const ref = { siteId: 'w1', organization: 'o1' };
const ISO = '2026-01-01T00:00:00.000Z';
const updated = () =>
  recorded(
    'SitePublishingAuthUpdated',
    { ...ref, backend: 'custom', fallbackURL: 'https://a.com/in', logoutURL: null, updatedAt: ISO },
    inStream,
  );
const regenerated = () =>
  recorded('SitePublishingAuthKeyRegenerated', { ...ref, keyGeneration: 1, regeneratedAt: ISO }, inStream);

const auths = givenProjection(publishingAuthProjection);

describe('publishing auth projection', () => {
  it("keeps a site's settings and its key's generation", async () => {
    const expected = {
      id: 'w1',
      organization: 'o1',
      backend: 'custom' as const,
      fallbackURL: 'https://a.com/in',
      logoutURL: null,
      keyGeneration: 1,
      streamRevision: 1,
    };
    await auths.given(updated(), regenerated()).thenDocuments(PUBLISHING_AUTHS, [expected]);
  });

  it('forgets it with its site', async () => {
    const deleted = recorded('SiteDeleted', { ...ref, deletedAt: ISO });
    await auths.given(updated(), regenerated(), deleted).thenDocuments(PUBLISHING_AUTHS, []);
  });

  it('changes nothing when replayed, and rebuilds to the same views', async () => {
    const scenario = auths.given(updated(), regenerated());
    await scenario.thenReplayChangesNothing();
    await scenario.thenRebuildMatches();
  });
});
