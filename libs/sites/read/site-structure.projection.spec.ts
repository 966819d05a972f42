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

  it('keeps section groups and the order of the top level, and rebuilds to the same views', async () => {
    const section = (id: string) =>
      recorded(
        'SiteSectionAdded',
        {
          ...ref,
          section: { id, title: id, path: id, siteSpaces: [{ id: `ss-${id}`, spaceId: 'sp1', path: id }] },
          addedAt: AT,
        },
        inStream,
      );
    const grouped = recorded(
      'SiteSectionGroupAdded',
      { ...ref, group: { id: 'g1', title: 'Guides', sections: ['sc2'] }, addedAt: AT },
      inStream,
    );
    const groupMoved = recorded(
      'SiteSectionGroupMoved',
      { ...ref, groupId: 'g1', index: 0, movedAt: AT },
      inStream,
    );
    const intoGroup = recorded(
      'SiteSectionMoved',
      { ...ref, sectionId: 'sc3', group: 'g1', index: 0, movedAt: AT },
      inStream,
    );
    const renamed = recorded(
      'SiteSectionGroupUpdated',
      { ...ref, groupId: 'g1', changes: { title: 'Manuals', icon: 'book' }, updatedAt: AT },
      inStream,
    );
    const scenario = structures.given(
      created(),
      section('sc1'),
      section('sc2'),
      section('sc3'),
      grouped,
      groupMoved,
      intoGroup,
      renamed,
    );
    const doc = (await scenario.documents(SITE_STRUCTURES))[0];
    expect(doc.structure.top).toEqual(['g1', 'sc1']);
    expect(doc.structure.groups).toEqual([
      { id: 'g1', title: 'Manuals', icon: 'book', sections: ['sc3', 'sc2'] },
    ]);
    expect(doc.structure.sections.map((s) => s.id)).toEqual(['sc3', 'sc2', 'sc1']);
    await scenario.thenReplayChangesNothing();
    await scenario.thenRebuildMatches();

    const ungrouped = structures.given(
      created(),
      section('sc1'),
      section('sc2'),
      grouped,
      recorded(
        'SiteSectionGroupRemoved',
        { ...ref, groupId: 'g1', sections: ['sc2'], removedAt: AT },
        inStream,
      ),
    );
    await ungrouped.thenDocuments(SITE_STRUCTURES, [
      {
        id: 'w1',
        organization: 'o1',
        structure: {
          siteSpaces: [],
          sections: ['sc1', 'sc2'].map((id) => ({
            id,
            title: id,
            path: id,
            siteSpaces: [{ id: `ss-${id}`, spaceId: 'sp1', path: id }],
          })),
        },
        streamRevision: 4,
      },
    ]);
    await ungrouped.thenRebuildMatches();
  });
});
