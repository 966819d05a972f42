import { givenProjection, recorderOf } from '@app/platform/projector/projection.testing';
import { type ShareLinkEvent, shareLinkStream } from '../domain/share-link.decider';
import type { SiteEvent } from '../domain/site.decider';
import { SHARE_LINKS, shareLinkProjection } from './share-link.projection';

const recorded = recorderOf<ShareLinkEvent>();
const recordedSite = recorderOf<SiteEvent>();
const inStream = { stream: shareLinkStream('l1') };
const ref = { shareLinkId: 'l1', siteId: 'w1', organization: 'o1' };
const created = () =>
  recorded(
    'ShareLinkCreated',
    { ...ref, name: 'Reviewers', keyHash: 'h1', createdAt: '2026-01-01T00:00:00.000Z' },
    inStream,
  );
const renamed = () =>
  recorded('ShareLinkRenamed', { ...ref, name: 'Beta', renamedAt: '2026-01-02T00:00:00.000Z' }, inStream);
const deactivated = () =>
  recorded('ShareLinkDeactivated', { ...ref, deactivatedAt: '2026-01-03T00:00:00.000Z' }, inStream);
const activated = () =>
  recorded('ShareLinkActivated', { ...ref, activatedAt: '2026-01-04T00:00:00.000Z' }, inStream);

const links = givenProjection(shareLinkProjection);

const doc = {
  id: 'l1',
  organization: 'o1',
  siteId: 'w1',
  keyHash: 'h1',
  createdAt: '2026-01-01T00:00:00.000Z',
};

describe('share link projection', () => {
  it('records a link, its new name and its deactivation, with its stream revision as ETag', async () => {
    await links
      .given(created(), renamed(), deactivated())
      .thenDocuments(SHARE_LINKS, [
        { ...doc, name: 'Beta', active: false, updatedAt: '2026-01-03T00:00:00.000Z', streamRevision: 2 },
      ]);
  });

  it('records a reactivation', async () => {
    await links
      .given(created(), deactivated(), activated())
      .thenDocuments(SHARE_LINKS, [
        { ...doc, name: 'Reviewers', active: true, updatedAt: '2026-01-04T00:00:00.000Z', streamRevision: 2 },
      ]);
  });

  it('forgets a deleted link', async () => {
    const deleted = recorded('ShareLinkDeleted', { ...ref, deletedAt: '2026-01-05T00:00:00.000Z' }, inStream);
    await links.given(created(), deleted).thenDocuments(SHARE_LINKS, []);
  });

  it('forgets the links of a deleted site, and only those', async () => {
    const other = recorded(
      'ShareLinkCreated',
      { ...ref, shareLinkId: 'l2', siteId: 'w2', name: 'Other', keyHash: 'h2', createdAt: doc.createdAt },
      { stream: shareLinkStream('l2') },
    );
    const siteDeleted = recordedSite('SiteDeleted', {
      siteId: 'w1',
      organization: 'o1',
      deletedAt: doc.createdAt,
    });
    const [kept] = await links.given(created(), other, siteDeleted).documents(SHARE_LINKS);
    expect(kept).toMatchObject({ id: 'l2', siteId: 'w2' });
    expect(await links.given(created(), other, siteDeleted).documents(SHARE_LINKS)).toHaveLength(1);
  });

  it('changes nothing when replayed, and rebuilds to the same views', async () => {
    const scenario = links.given(created(), renamed(), deactivated(), activated());
    await scenario.thenReplayChangesNothing();
    await scenario.thenRebuildMatches();
  });
});
