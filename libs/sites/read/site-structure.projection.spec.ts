import { givenProjection, recorderOf } from '@app/platform/projector/projection.testing';
import { type SiteEvent, siteStream } from '../domain/site.decider';
import { SITE_SPACES, SITE_STRUCTURES, siteStructureProjection } from './site-structure.projection';

const recorded = recorderOf<SiteEvent>();
const inStream = { stream: siteStream('w1') };
const ref = { siteId: 'w1', organization: 'o1' };
const AT = '2026-01-01T00:00:00.000Z';
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
      createdAt: AT,
    },
    inStream,
  );
const added = (id: string, spaceId: string) =>
  recorded('SiteSpaceAdded', { ...ref, siteSpace: { id, spaceId, path: id }, addedAt: AT }, inStream);
const sectioned = () =>
  recorded(
    'SiteSectionAdded',
    {
      ...ref,
      section: {
        id: 'sc1',
        title: 'Docs',
        path: 'docs',
        siteSpaces: [{ id: 'ss1', spaceId: 'sp1', path: 'ss1' }],
      },
      fromRoot: true,
      addedAt: AT,
    },
    inStream,
  );
const moved = () =>
  recorded('SiteSpaceMoved', { ...ref, siteSpaceId: 'ss2', index: 0, movedAt: AT }, inStream);
const removed = () =>
  recorded(
    'SiteSpaceRemoved',
    { ...ref, siteSpaceId: 'ss1', spaceId: 'sp1', reason: 'space-deleted', removedAt: AT },
    inStream,
  );

const structures = givenProjection(siteStructureProjection);

describe('site structure projection', () => {
  it('keeps the order of site spaces, and one document per site space naming its space', async () => {
    const scenario = structures.given(created(), added('ss1', 'sp1'), added('ss2', 'sp2'), moved());
    await scenario.thenDocuments(SITE_STRUCTURES, [
      {
        id: 'w1',
        organization: 'o1',
        structure: {
          siteSpaces: [
            { id: 'ss2', spaceId: 'sp2', path: 'ss2' },
            { id: 'ss1', spaceId: 'sp1', path: 'ss1' },
          ],
          sections: [],
        },
        streamRevision: 3,
      },
    ]);
    await scenario.thenDocuments(SITE_SPACES, [
      { id: 'ss1', siteId: 'w1', organization: 'o1', spaceId: 'sp1', section: null },
      { id: 'ss2', siteId: 'w1', organization: 'o1', spaceId: 'sp2', section: null },
    ]);
  });

  it('moves root site spaces into the first section, and forgets a removed one', async () => {
    await structures
      .given(created(), added('ss1', 'sp1'), sectioned())
      .thenDocuments(SITE_SPACES, [
        { id: 'ss1', siteId: 'w1', organization: 'o1', spaceId: 'sp1', section: 'sc1' },
      ]);
    await structures
      .given(created(), added('ss1', 'sp1'), added('ss2', 'sp2'), removed())
      .thenDocuments(SITE_SPACES, [
        { id: 'ss2', siteId: 'w1', organization: 'o1', spaceId: 'sp2', section: null },
      ]);
  });

  it('keeps the conditions of site spaces and sections, a removed one gone, and rebuilds to the same views', async () => {
    const spaceCondition = (condition: string | null) =>
      recorded(
        'SiteSpaceUpdated',
        { ...ref, siteSpaceId: 'ss1', changes: { condition }, updatedAt: AT },
        inStream,
      );
    const sectionCondition = recorded(
      'SiteSectionUpdated',
      { ...ref, sectionId: 'sc1', changes: { condition: 'visitor.claims.beta' }, updatedAt: AT },
      inStream,
    );
    const scenario = structures.given(
      created(),
      added('ss1', 'sp1'),
      added('ss2', 'sp2'),
      sectioned(),
      spaceCondition('visitor.claims.beta'),
      spaceCondition(null),
      spaceCondition('!visitor.claims.beta'),
      sectionCondition,
    );
    await scenario.thenDocuments(SITE_STRUCTURES, [
      {
        id: 'w1',
        organization: 'o1',
        structure: {
          siteSpaces: [{ id: 'ss2', spaceId: 'sp2', path: 'ss2' }],
          sections: [
            {
              id: 'sc1',
              title: 'Docs',
              path: 'docs',
              condition: 'visitor.claims.beta',
              siteSpaces: [{ id: 'ss1', spaceId: 'sp1', path: 'ss1', condition: '!visitor.claims.beta' }],
            },
          ],
        },
        streamRevision: 7,
      },
    ]);
    await scenario.thenReplayChangesNothing();
    await scenario.thenRebuildMatches();
  });

  it("forgets a deleted site's structure", async () => {
    const deleted = recorded('SiteDeleted', { ...ref, deletedAt: AT }, inStream);
    const scenario = structures.given(created(), added('ss1', 'sp1'), deleted);
    await scenario.thenDocuments(SITE_STRUCTURES, []);
    await scenario.thenDocuments(SITE_SPACES, []);
  });

  it('changes nothing when replayed, and rebuilds to the same views', async () => {
    const scenario = structures.given(
      created(),
      added('ss1', 'sp1'),
      added('ss2', 'sp2'),
      moved(),
      sectioned(),
    );
    await scenario.thenReplayChangesNothing();
    await scenario.thenRebuildMatches();
  });
});
