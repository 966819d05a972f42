import { fold } from '@app/platform/domain/decider';
import { spec } from '@app/platform/domain/decider.testing';
import fc from 'fast-check';
import { type SiteCommand, type SiteEvent, type SiteState, type SpaceRef, siteDecider } from './site.decider';
import type { Position } from './site-structure';

const AT = Date.parse('2026-01-01T00:00:00.000Z');
const ISO = '2026-01-01T00:00:00.000Z';
const ref = { siteId: 'w1', organization: 'o1' };
const space = (id: string, title = `Space ${id}`, organization = 'o1'): SpaceRef => ({
  id,
  organization,
  title,
});
const created: SiteEvent = {
  type: 'SiteCreated',
  data: {
    ...ref,
    title: 'Docs',
    type: 'basic',
    visibility: 'public',
    adaptiveContent: false,
    agentsContext: 'included',
    createdAt: ISO,
  },
};
const spaceAdded = (id: string, spaceId: string, path: string, section?: string): SiteEvent => ({
  type: 'SiteSpaceAdded',
  data: { ...ref, siteSpace: { id, spaceId, path }, ...(section ? { section } : {}), addedAt: ISO },
});
const addSpace = (siteSpaceId: string, target: SpaceRef, sectionId?: string): SiteCommand => ({
  type: 'AddSiteSpace',
  organization: 'o1',
  siteSpaceId,
  space: target,
  ...(sectionId ? { sectionId } : {}),
  at: AT,
});
const addSection = (
  sectionId: string,
  siteSpaceId: string,
  target: SpaceRef,
  title?: string,
): SiteCommand => ({
  type: 'AddSiteSection',
  organization: 'o1',
  sectionId,
  rootSectionId: `root-${sectionId}`,
  siteSpaceId,
  space: target,
  ...(title ? { title } : {}),
  at: AT,
});
const sectionAdded = (
  id: string,
  title: string,
  path: string,
  siteSpaces: { id: string; spaceId: string; path: string }[],
  fromRoot?: true,
): SiteEvent => ({
  type: 'SiteSectionAdded',
  data: { ...ref, section: { id, title, path, siteSpaces }, ...(fromRoot ? { fromRoot } : {}), addedAt: ISO },
});

describe('site structure decisions', () => {
  const site = spec(siteDecider);
  const withTwo = [created, spaceAdded('ss1', 'sp1', 'guide'), spaceAdded('ss2', 'sp2', 'api')];

  it('adds a space at the root of a site without sections, at a free path made of its title', () => {
    site
      .given([created])
      .when(addSpace('ss1', space('sp1', 'User Guide')))
      .thenEmits([spaceAdded('ss1', 'sp1', 'user-guide')]);
    site
      .given([created, spaceAdded('ss1', 'sp1', 'guide')])
      .when(addSpace('ss2', space('sp2', 'Guide')))
      .thenEmits([spaceAdded('ss2', 'sp2', 'guide-2')]);
  });

  it('adds a space named on creation as its first site spaces', () => {
    site
      .when({
        type: 'CreateSite',
        ...ref,
        input: { title: 'Docs' },
        spaces: [{ siteSpaceId: 'ss1', space: space('sp1', 'Guide') }],
        at: AT,
      })
      .thenEmits([created, spaceAdded('ss1', 'sp1', 'guide')]);
  });

  it("refuses a space of another organization, as one it doesn't have", () => {
    site
      .given([created])
      .when(addSpace('ss1', space('sp1', 'Guide', 'o2')))
      .thenThrows('invalid', /^spaceId/);
    site
      .when({
        type: 'CreateSite',
        ...ref,
        input: {},
        spaces: [{ siteSpaceId: 'ss1', space: space('sp1', 'G', 'o2') }],
        at: AT,
      })
      .thenThrows('invalid', /^spaces/);
    site
      .given(withTwo)
      .when({
        type: 'UpdateSiteSpace',
        organization: 'o1',
        siteSpaceId: 'ss1',
        input: { space: space('sp9', 'X', 'o2') },
        at: AT,
      })
      .thenThrows('invalid', /^spaceId/);
  });

  it('adds to the default section once the site has sections, or to the one named', () => {
    const sections = [
      created,
      sectionAdded('sc1', 'One', 'one', [{ id: 'ss1', spaceId: 'sp1', path: 'one' }]),
      sectionAdded('sc2', 'Two', 'two', [{ id: 'ss2', spaceId: 'sp2', path: 'two' }]),
    ];
    site
      .given(sections)
      .when(addSpace('ss3', space('sp3', 'One')))
      .thenEmits([spaceAdded('ss3', 'sp3', 'one-2', 'sc1')]);
    site
      .given([
        ...sections,
        { type: 'SiteUpdated', data: { ...ref, changes: { defaultSiteSection: 'sc2' }, updatedAt: ISO } },
      ])
      .when(addSpace('ss3', space('sp3', 'Three')))
      .thenEmits([spaceAdded('ss3', 'sp3', 'three', 'sc2')]);
    site
      .given(sections)
      .when(addSpace('ss3', space('sp3', 'Three'), 'sc2'))
      .thenEmits([spaceAdded('ss3', 'sp3', 'three', 'sc2')]);
    site
      .given(sections)
      .when(addSpace('ss3', space('sp3'), 'sc9'))
      .thenThrows('invalid', /^sectionId/);
  });

  it('updates a site space path and space, refusing a path its sibling has', () => {
    const update = (input: { path?: string; space?: SpaceRef }): SiteCommand => ({
      type: 'UpdateSiteSpace',
      organization: 'o1',
      siteSpaceId: 'ss1',
      input,
      at: AT,
    });
    site
      .given(withTwo)
      .when(update({ path: 'handbook', space: space('sp3') }))
      .thenEmits([
        {
          type: 'SiteSpaceUpdated',
          data: { ...ref, siteSpaceId: 'ss1', changes: { path: 'handbook', spaceId: 'sp3' }, updatedAt: ISO },
        },
      ]);
    site
      .given(withTwo)
      .when(update({ path: 'guide', space: space('sp1') }))
      .thenEmits([]);
    site
      .given(withTwo)
      .when(update({ path: 'api' }))
      .thenThrows('invalid', /^path/);
    site
      .given(withTwo)
      .when({ type: 'UpdateSiteSpace', organization: 'o1', siteSpaceId: 'ss9', input: {}, at: AT })
      .thenThrows('not_found');
  });

  it('removes a site space it has, and refuses one it has not', () => {
    const remove = (siteSpaceId: string): SiteCommand => ({
      type: 'RemoveSiteSpace',
      organization: 'o1',
      siteSpaceId,
      at: AT,
    });
    site
      .given(withTwo)
      .when(remove('ss1'))
      .thenEmits([
        { type: 'SiteSpaceRemoved', data: { ...ref, siteSpaceId: 'ss1', spaceId: 'sp1', removedAt: ISO } },
      ]);
    site.given(withTwo).when(remove('ss9')).thenThrows('not_found');
    site
      .given([
        ...withTwo,
        { type: 'SiteSpaceRemoved', data: { ...ref, siteSpaceId: 'ss1', spaceId: 'sp1', removedAt: ISO } },
      ])
      .when(remove('ss1'))
      .thenThrows('not_found');
    site
      .given(withTwo)
      .when({ ...remove('ss1'), organization: 'o2' } as SiteCommand)
      .thenThrows('not_found');
  });

  it('moves a site space before or after another, to the end without a position, and refuses itself', () => {
    const move = (position: Position): SiteCommand => ({
      type: 'MoveSiteSpace',
      organization: 'o1',
      siteSpaceId: 'ss2',
      position,
      at: AT,
    });
    const moved = (index: number): SiteEvent => ({
      type: 'SiteSpaceMoved',
      data: { ...ref, siteSpaceId: 'ss2', index, movedAt: ISO },
    });
    site
      .given(withTwo)
      .when(move({ before: 'ss1' }))
      .thenEmits([moved(0)]);
    site
      .given(withTwo)
      .when(move({ after: 'ss1' }))
      .thenEmits([]);
    site.given(withTwo).when(move({})).thenEmits([]);
    site
      .given(withTwo)
      .when(move({ before: 'ss2' }))
      .thenThrows('invalid', /^position/);
    site
      .given(withTwo)
      .when(move({ after: 'ss9' }))
      .thenThrows('invalid', /^position/);
  });

  it("makes a site's root site spaces its first section when it gains one", () => {
    site
      .given(withTwo)
      .when(addSection('sc1', 'ss3', space('sp3', 'Reference')))
      .thenEmits([
        sectionAdded(
          'root-sc1',
          'Docs',
          'docs',
          [
            { id: 'ss1', spaceId: 'sp1', path: 'guide' },
            { id: 'ss2', spaceId: 'sp2', path: 'api' },
          ],
          true,
        ),
        sectionAdded('sc1', 'Reference', 'reference', [{ id: 'ss3', spaceId: 'sp3', path: 'reference' }]),
      ]);
    site
      .given([created])
      .when(addSection('sc1', 'ss3', space('sp3', 'Reference'), 'Docs'))
      .thenEmits([sectionAdded('sc1', 'Docs', 'docs', [{ id: 'ss3', spaceId: 'sp3', path: 'reference' }])]);
    site
      .given([created])
      .when(addSection('sc1', 'ss3', space('sp3', 'R', 'o2')))
      .thenThrows('invalid', /^spaceId/);
  });

  it("takes as a section's default only one of its own site spaces; null removes its icon", () => {
    const sections = [
      created,
      sectionAdded('sc1', 'One', 'one', [{ id: 'ss1', spaceId: 'sp1', path: 'one' }]),
      sectionAdded('sc2', 'Two', 'two', [{ id: 'ss2', spaceId: 'sp2', path: 'two' }]),
      spaceAdded('ss3', 'sp3', 'three', 'sc1'),
    ];
    const update = (sectionId: string, input: object): SiteCommand => ({
      type: 'UpdateSiteSection',
      organization: 'o1',
      sectionId,
      input,
      at: AT,
    });
    site
      .given(sections)
      .when(update('sc1', { defaultSiteSpace: 'ss2' }))
      .thenThrows('invalid', /^defaultSiteSpace/);
    site
      .given(sections)
      .when(update('sc1', { defaultSiteSpace: 'ss3', title: 'First', icon: null }))
      .thenEmits([
        {
          type: 'SiteSectionUpdated',
          data: {
            ...ref,
            sectionId: 'sc1',
            changes: { title: 'First', defaultSiteSpace: 'ss3' },
            updatedAt: ISO,
          },
        },
      ]);
    site
      .given(sections)
      .when(update('sc2', { path: 'one' }))
      .thenThrows('invalid', /^path/);
    site
      .given(sections)
      .when(update('sc9', { title: 'Nine' }))
      .thenThrows('not_found');
    // The site's default site space is, with sections, the default section's.
    site
      .given(sections)
      .when({ type: 'UpdateSite', organization: 'o1', input: { defaultSiteSpace: 'ss3' }, at: AT })
      .thenEmits([
        {
          type: 'SiteSectionUpdated',
          data: { ...ref, sectionId: 'sc1', changes: { defaultSiteSpace: 'ss3' }, updatedAt: ISO },
        },
      ]);
    site
      .given(sections)
      .when({ type: 'UpdateSite', organization: 'o1', input: { defaultSiteSpace: 'ss2' }, at: AT })
      .thenThrows('invalid', /^defaultSiteSpace/);
    site
      .given(sections)
      .when({ type: 'UpdateSite', organization: 'o1', input: { defaultSiteSection: 'sc2' }, at: AT })
      .thenEmits([
        { type: 'SiteUpdated', data: { ...ref, changes: { defaultSiteSection: 'sc2' }, updatedAt: ISO } },
      ]);
    site
      .given(withTwo)
      .when({ type: 'UpdateSite', organization: 'o1', input: { defaultSiteSpace: 'ss2' }, at: AT })
      .thenEmits([
        { type: 'SiteUpdated', data: { ...ref, changes: { defaultSiteSpace: 'ss2' }, updatedAt: ISO } },
      ]);
  });

  it('removes a section with its site spaces, and moves sections', () => {
    const sections = [
      created,
      sectionAdded('sc1', 'One', 'one', [{ id: 'ss1', spaceId: 'sp1', path: 'one' }]),
      sectionAdded('sc2', 'Two', 'two', [{ id: 'ss2', spaceId: 'sp2', path: 'two' }]),
    ];
    site
      .given(sections)
      .when({ type: 'RemoveSiteSection', organization: 'o1', sectionId: 'sc1', at: AT })
      .thenEmits([
        {
          type: 'SiteSectionRemoved',
          data: { ...ref, sectionId: 'sc1', siteSpaces: ['ss1'], removedAt: ISO },
        },
      ]);
    site
      .given(sections)
      .when({ type: 'RemoveSiteSection', organization: 'o1', sectionId: 'sc9', at: AT })
      .thenThrows('not_found');
    site
      .given(sections)
      .when({
        type: 'MoveSiteSection',
        organization: 'o1',
        sectionId: 'sc2',
        position: { before: 'sc1' },
        at: AT,
      })
      .thenEmits([{ type: 'SiteSectionMoved', data: { ...ref, sectionId: 'sc2', index: 0, movedAt: ISO } }]);
    site
      .given(sections)
      .when({
        type: 'MoveSiteSection',
        organization: 'o1',
        sectionId: 'sc2',
        position: { before: 'ss1' },
        at: AT,
      })
      .thenThrows('invalid', /^position/);
  });

  it('detaches every site space of a space gone from the organization, and nothing else', () => {
    const detach: SiteCommand = { type: 'DetachSpace', spaceId: 'sp1', reason: 'space-deleted', at: AT };
    const removed = (siteSpaceId: string): SiteEvent => ({
      type: 'SiteSpaceRemoved',
      data: { ...ref, siteSpaceId, spaceId: 'sp1', reason: 'space-deleted', removedAt: ISO },
    });
    site
      .given([...withTwo, spaceAdded('ss3', 'sp1', 'again')])
      .when(detach)
      .thenEmits([removed('ss1'), removed('ss3')]);
    site.given([created]).when(detach).thenEmits([]);
    site
      .given([created, { type: 'SiteDeleted', data: { ...ref, deletedAt: ISO } }])
      .when(detach)
      .thenEmits([]);
  });
});

const groupAdded = (id: string, title: string, sections: string[], icon?: string): SiteEvent => ({
  type: 'SiteSectionGroupAdded',
  data: { ...ref, group: { id, title, ...(icon ? { icon } : {}), sections }, addedAt: ISO },
});
const sectionMoved = (sectionId: string, index: number, group?: string): SiteEvent => ({
  type: 'SiteSectionMoved',
  data: { ...ref, sectionId, ...(group ? { group } : {}), index, movedAt: ISO },
});
const threeSections = [
  created,
  sectionAdded('sc1', 'One', 'one', [{ id: 'ss1', spaceId: 'sp1', path: 'one' }]),
  sectionAdded('sc2', 'Two', 'two', [{ id: 'ss2', spaceId: 'sp2', path: 'two' }]),
  sectionAdded('sc3', 'Three', 'three', [{ id: 'ss3', spaceId: 'sp3', path: 'three' }]),
];
const order = (state: SiteState) => {
  const { structure } = active(state);
  return {
    top: structure.top ?? structure.sections.map((s) => s.id),
    groups: Object.fromEntries((structure.groups ?? []).map((g) => [g.id, g.sections])),
    sections: structure.sections.map((s) => s.id),
  };
};

describe('site section groups', () => {
  const site = spec(siteDecider);
  const addGroup = (groupId: string, sections: string[], title = 'Guides'): SiteCommand => ({
    type: 'AddSiteSectionGroup',
    organization: 'o1',
    groupId,
    title,
    sections,
    at: AT,
  });

  it('adds a group at the end of the top level, taking its sections from where they were', () => {
    const state = site
      .given(threeSections)
      .when(addGroup('g1', ['sc3', 'sc1', 'sc3']))
      .thenEmits([groupAdded('g1', 'Guides', ['sc3', 'sc1'])]);
    expect(order(state)).toEqual({
      top: ['sc2', 'g1'],
      groups: { g1: ['sc3', 'sc1'] },
      sections: ['sc2', 'sc3', 'sc1'],
    });
    const again = site
      .given([...threeSections, groupAdded('g1', 'Guides', ['sc3', 'sc1'])])
      .when(addGroup('g2', ['sc1']))
      .thenEmits([groupAdded('g2', 'Guides', ['sc1'])]);
    // A section is in one group at most: the new one takes it.
    expect(order(again).groups).toEqual({ g1: ['sc3'], g2: ['sc1'] });
    site
      .given(threeSections)
      .when(addGroup('g1', []))
      .thenEmits([groupAdded('g1', 'Guides', [])]);
  });

  it('refuses a section the site has not, naming the field, a title of nothing, and a group twice', () => {
    site
      .given(threeSections)
      .when(addGroup('g1', ['sc1', 'sc9']))
      .thenThrows('invalid', /^sections: /);
    site
      .given(threeSections)
      .when(addGroup('g1', [], '  '))
      .thenThrows('invalid', /^title/);
    site
      .given(threeSections)
      .when(addGroup('g1', [], 'x'.repeat(101)))
      .thenThrows('invalid', /^title/);
    site
      .given([...threeSections, groupAdded('g1', 'Guides', [])])
      .when(addGroup('g1', []))
      .thenThrows('conflict');
  });

  it('updates its title and icon, null removing the icon, and records nothing for the same', () => {
    const withGroup = [...threeSections, groupAdded('g1', 'Guides', ['sc1'], 'book')];
    const update = (
      input: Extract<SiteCommand, { type: 'UpdateSiteSectionGroup' }>['input'],
    ): SiteCommand => ({
      type: 'UpdateSiteSectionGroup',
      organization: 'o1',
      groupId: 'g1',
      input,
      at: AT,
    });
    const state = site
      .given(withGroup)
      .when(update({ title: 'Manuals', icon: null }))
      .thenEmits([
        {
          type: 'SiteSectionGroupUpdated',
          data: { ...ref, groupId: 'g1', changes: { title: 'Manuals', icon: null }, updatedAt: ISO },
        },
      ]);
    expect(active(state).structure.groups).toEqual([{ id: 'g1', title: 'Manuals', sections: ['sc1'] }]);
    site
      .given(withGroup)
      .when(update({ title: 'Guides', icon: 'book' }))
      .thenNothing();
    site
      .given(withGroup)
      .when({ ...update({}), groupId: 'g9' } as SiteCommand)
      .thenThrows('not_found');
  });

  it('removes a group, its sections taking its place at the top level', () => {
    const state = site
      .given([...threeSections, groupAdded('g1', 'Guides', ['sc2', 'sc1'])])
      .when({ type: 'RemoveSiteSectionGroup', organization: 'o1', groupId: 'g1', at: AT })
      .thenEmits([
        {
          type: 'SiteSectionGroupRemoved',
          data: { ...ref, groupId: 'g1', sections: ['sc2', 'sc1'], removedAt: ISO },
        },
      ]);
    expect(active(state).structure).not.toHaveProperty('groups');
    expect(order(state)).toEqual({ top: ['sc3', 'sc2', 'sc1'], groups: {}, sections: ['sc3', 'sc2', 'sc1'] });
  });

  it('adds a section to a group at its end, and takes one out to just after the group', () => {
    const withGroup = [...threeSections, groupAdded('g1', 'Guides', ['sc2']), sectionMoved('sc3', 0)];
    expect(order(fold(siteDecider, withGroup)).top).toEqual(['sc3', 'sc1', 'g1']);
    const add = (sectionId: string, groupId = 'g1'): SiteCommand => ({
      type: 'AddSectionToGroup',
      organization: 'o1',
      groupId,
      sectionId,
      at: AT,
    });
    const remove = (sectionId: string): SiteCommand => ({
      type: 'RemoveSectionFromGroup',
      organization: 'o1',
      groupId: 'g1',
      sectionId,
      at: AT,
    });
    const added = site
      .given(withGroup)
      .when(add('sc3'))
      .thenEmits([sectionMoved('sc3', 1, 'g1')]);
    expect(order(added)).toEqual({
      top: ['sc1', 'g1'],
      groups: { g1: ['sc2', 'sc3'] },
      sections: ['sc1', 'sc2', 'sc3'],
    });
    site.given(withGroup).when(add('sc2')).thenNothing();
    site
      .given(withGroup)
      .when(add('sc9'))
      .thenThrows('invalid', /^sectionId: /);
    site.given(withGroup).when(add('sc1', 'g9')).thenThrows('not_found');
    const removed = site
      .given(withGroup)
      .when(remove('sc2'))
      .thenEmits([sectionMoved('sc2', 3)]);
    expect(order(removed).top).toEqual(['sc3', 'sc1', 'g1', 'sc2']);
    site.given(withGroup).when(remove('sc1')).thenThrows('not_found');
  });

  it('adds a section into a group, moves one in or out by an update, and forgets a deleted one', () => {
    const withGroup = [...threeSections, groupAdded('g1', 'Guides', ['sc2'])];
    site
      .given(withGroup)
      .when({ ...addSection('sc4', 'ss4', space('sp4', 'Four'), 'Four'), groupId: 'g1' } as SiteCommand)
      .thenEmits([
        {
          type: 'SiteSectionAdded',
          data: {
            ...ref,
            section: {
              id: 'sc4',
              title: 'Four',
              path: 'four',
              siteSpaces: [{ id: 'ss4', spaceId: 'sp4', path: 'four' }],
            },
            group: 'g1',
            addedAt: ISO,
          },
        },
      ]);
    site
      .given(withGroup)
      .when({ ...addSection('sc4', 'ss4', space('sp4')), groupId: 'g9' } as SiteCommand)
      .thenThrows('invalid', /^siteSectionGroupId: /);
    const update = (sectionId: string, group: string | null): SiteCommand => ({
      type: 'UpdateSiteSection',
      organization: 'o1',
      sectionId,
      input: { group },
      at: AT,
    });
    site
      .given(withGroup)
      .when(update('sc1', 'g1'))
      .thenEmits([sectionMoved('sc1', 1, 'g1')]);
    site
      .given(withGroup)
      .when(update('sc2', null))
      .thenEmits([sectionMoved('sc2', 3)]);
    site.given(withGroup).when(update('sc1', null)).thenNothing();
    site
      .given(withGroup)
      .when(update('sc1', 'g9'))
      .thenThrows('invalid', /^siteSectionGroupId: /);
    const gone = site
      .given(withGroup)
      .when({ type: 'RemoveSiteSection', organization: 'o1', sectionId: 'sc2', at: AT })
      .thenEmits([
        {
          type: 'SiteSectionRemoved',
          data: { ...ref, sectionId: 'sc2', siteSpaces: ['ss2'], removedAt: ISO },
        },
      ]);
    expect(order(gone)).toEqual({ top: ['sc1', 'sc3', 'g1'], groups: { g1: [] }, sections: ['sc1', 'sc3'] });
  });

  it('moves a group among the top level, refusing a pointer inside a group; a section follows its pointer', () => {
    const withGroup = [...threeSections, groupAdded('g1', 'Guides', ['sc2'])];
    const moveGroup = (position: Position): SiteCommand => ({
      type: 'MoveSiteSectionGroup',
      organization: 'o1',
      groupId: 'g1',
      position,
      at: AT,
    });
    const moved = site
      .given(withGroup)
      .when(moveGroup({ before: 'sc1' }))
      .thenEmits([
        { type: 'SiteSectionGroupMoved', data: { ...ref, groupId: 'g1', index: 0, movedAt: ISO } },
      ]);
    expect(order(moved).sections).toEqual(['sc2', 'sc1', 'sc3']);
    site.given(withGroup).when(moveGroup({})).thenNothing();
    site
      .given(withGroup)
      .when(moveGroup({ after: 'sc2' }))
      .thenThrows('invalid', /^position/);
    const moveSection = (sectionId: string, position: Position): SiteCommand => ({
      type: 'MoveSiteSection',
      organization: 'o1',
      sectionId,
      position,
      at: AT,
    });
    site
      .given(withGroup)
      .when(moveSection('sc1', { after: 'sc2' }))
      .thenEmits([sectionMoved('sc1', 1, 'g1')]);
    site
      .given(withGroup)
      .when(moveSection('sc2', { before: 'g1' }))
      .thenEmits([sectionMoved('sc2', 2)]);
    site.given(withGroup).when(moveSection('sc2', {})).thenNothing();
  });
});

/** The order a model keeps with plain arrays: what every sequence of moves must leave. */
function modelMove(list: string[], item: string, position: Position): string[] {
  const rest = list.filter((id) => id !== item);
  const pointer = position.before ?? position.after;
  const at =
    pointer === undefined ? rest.length : rest.indexOf(pointer) + (position.before !== undefined ? 0 : 1);
  return [...rest.slice(0, at), item, ...rest.slice(at)];
}

const active = (state: SiteState) => {
  if (state.status !== 'active') throw new Error('site not active');
  return state;
};

describe('site structure order', () => {
  const siteSpaceIds = ['a', 'b', 'c', 'd', 'e'];
  const sectionIds = ['s1', 's2', 's3', 's4'];
  const positionOf = (ids: readonly string[]) =>
    fc.oneof(
      fc.constantFrom(...ids).map((before): Position => ({ before })),
      fc.constantFrom(...ids).map((after): Position => ({ after })),
      fc.constant<Position>({}),
    );

  it('stays exact through any sequence of site space moves', () => {
    const moves = fc.array(fc.tuple(fc.constantFrom(...siteSpaceIds), positionOf(siteSpaceIds)), {
      maxLength: 40,
    });
    fc.assert(
      fc.property(moves, (sequence) => {
        let events: SiteEvent[] = [created, ...siteSpaceIds.map((id) => spaceAdded(id, `sp-${id}`, id))];
        let model = [...siteSpaceIds];
        for (const [item, position] of sequence) {
          const state = fold(siteDecider, events);
          const command: SiteCommand = {
            type: 'MoveSiteSpace',
            organization: 'o1',
            siteSpaceId: item,
            position,
            at: AT,
          };
          if ((position.before ?? position.after) === item) {
            expect(() => siteDecider.decide(command, state)).toThrow(/position/);
            continue;
          }
          events = [...events, ...siteDecider.decide(command, state)];
          model = modelMove(model, item, position);
          expect(active(fold(siteDecider, events)).structure.siteSpaces.map((s) => s.id)).toEqual(model);
        }
      }),
    );
  });

  it('stays exact through any sequence of section moves', () => {
    const moves = fc.array(fc.tuple(fc.constantFrom(...sectionIds), positionOf(sectionIds)), {
      maxLength: 40,
    });
    const sections = sectionIds.map((id) =>
      sectionAdded(id, id, id, [{ id: `ss-${id}`, spaceId: 'sp', path: id }]),
    );
    fc.assert(
      fc.property(moves, (sequence) => {
        let events: SiteEvent[] = [created, ...sections];
        let model = [...sectionIds];
        for (const [item, position] of sequence) {
          if ((position.before ?? position.after) === item) continue;
          const state = fold(siteDecider, events);
          const command: SiteCommand = {
            type: 'MoveSiteSection',
            organization: 'o1',
            sectionId: item,
            position,
            at: AT,
          };
          events = [...events, ...siteDecider.decide(command, state)];
          model = modelMove(model, item, position);
          const structure = active(fold(siteDecider, events)).structure;
          expect(structure.sections.map((s) => s.id)).toEqual(model);
          // A section keeps its own site spaces wherever it goes.
          for (const section of structure.sections)
            expect(section.siteSpaces.map((s) => s.id)).toEqual([`ss-${section.id}`]);
        }
      }),
    );
  });

  it('keeps every site space exactly once when moved across sections', () => {
    const all = ['a', 'b', 'c', 'd'];
    const moves = fc.array(fc.tuple(fc.constantFrom(...all), positionOf(all)), { maxLength: 30 });
    fc.assert(
      fc.property(moves, (sequence) => {
        let events: SiteEvent[] = [
          created,
          sectionAdded('s1', 'One', 'one', [{ id: 'a', spaceId: 'sp', path: 'a' }]),
          sectionAdded('s2', 'Two', 'two', [{ id: 'b', spaceId: 'sp', path: 'b' }]),
          spaceAdded('c', 'sp', 'c', 's1'),
          spaceAdded('d', 'sp', 'd', 's2'),
        ];
        // The model: each site space's section and the order within each.
        let model = new Map<string, string[]>([
          ['s1', ['a', 'c']],
          ['s2', ['b', 'd']],
        ]);
        for (const [item, position] of sequence) {
          const pointer = position.before ?? position.after;
          if (pointer === item) continue;
          const state = fold(siteDecider, events);
          const command: SiteCommand = {
            type: 'MoveSiteSpace',
            organization: 'o1',
            siteSpaceId: item,
            position,
            at: AT,
          };
          events = [...events, ...siteDecider.decide(command, state)];
          const from = [...model].find(([, ids]) => ids.includes(item))?.[0] as string;
          const to =
            pointer === undefined
              ? from
              : ([...model].find(([, ids]) => ids.includes(pointer))?.[0] as string);
          const next = new Map(model);
          next.set(
            from,
            (next.get(from) ?? []).filter((id) => id !== item),
          );
          next.set(to, modelMove(next.get(to) ?? [], item, position));
          model = next;
          const structure = active(fold(siteDecider, events)).structure;
          expect(
            Object.fromEntries(structure.sections.map((s) => [s.id, s.siteSpaces.map((x) => x.id)])),
          ).toEqual(Object.fromEntries(model));
        }
      }),
    );
  });
});

describe('site structure order with section groups', () => {
  const sections = ['s1', 's2', 's3', 's4'];
  const groups = ['g1', 'g2'];
  const pointer = (ids: readonly string[]) =>
    fc.oneof(
      fc.constantFrom(...ids).map((before): Position => ({ before })),
      fc.constantFrom(...ids).map((after): Position => ({ after })),
      fc.constant<Position>({}),
    );
  type Step =
    | { kind: 'section'; id: string; position: Position }
    | { kind: 'group'; id: string; position: Position }
    | { kind: 'add' | 'remove'; id: string; group: string };
  const everything = [...sections, ...groups];
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({
      kind: fc.constant('section' as const),
      id: fc.constantFrom(...sections),
      position: pointer(everything),
    }),
    fc.record({
      kind: fc.constant('group' as const),
      id: fc.constantFrom(...groups),
      position: pointer(everything),
    }),
    fc.record({
      kind: fc.constantFrom('add' as const, 'remove' as const),
      id: fc.constantFrom(...sections),
      group: fc.constantFrom(...groups),
    }),
  );

  /** The model: the top level and each group's sections, as plain arrays. */
  interface Model {
    top: string[];
    groups: Record<string, string[]>;
  }
  const without = (model: Model, id: string): Model => ({
    top: model.top.filter((x) => x !== id),
    groups: Object.fromEntries(
      Object.entries(model.groups).map(([g, ids]) => [g, ids.filter((x) => x !== id)]),
    ),
  });
  const groupHolding = (model: Model, id: string) =>
    Object.keys(model.groups).find((g) => model.groups[g].includes(id));
  /** The model after a step, or 'refused' when the decider must refuse it, or 'same' when nothing changes. */
  function modelStep(model: Model, s: Step): Model | 'refused' {
    if (!('position' in s)) {
      const rest = without(model, s.id);
      if (s.kind === 'add') {
        if (model.groups[s.group].includes(s.id)) return model;
        return { ...rest, groups: { ...rest.groups, [s.group]: [...rest.groups[s.group], s.id] } };
      }
      if (!model.groups[s.group].includes(s.id)) return 'refused';
      const at = rest.top.indexOf(s.group) + 1;
      return { ...rest, top: [...rest.top.slice(0, at), s.id, ...rest.top.slice(at)] };
    }
    const target = s.position.before ?? s.position.after;
    if (target === s.id) return 'refused';
    let level = groupHolding(model, s.id);
    if (s.kind === 'group') {
      if (target !== undefined && !model.top.includes(target)) return 'refused';
      return { ...model, top: modelMove(model.top, s.id, s.position) };
    }
    if (target !== undefined) level = groups.includes(target) ? undefined : groupHolding(model, target);
    const rest = without(model, s.id);
    if (level === undefined) return { ...rest, top: modelMove(rest.top, s.id, s.position) };
    return { ...rest, groups: { ...rest.groups, [level]: modelMove(rest.groups[level], s.id, s.position) } };
  }
  const commandOf = (s: Step): SiteCommand => {
    const base = { organization: 'o1', at: AT };
    if (s.kind === 'section')
      return { ...base, type: 'MoveSiteSection', sectionId: s.id, position: s.position };
    if (s.kind === 'group')
      return { ...base, type: 'MoveSiteSectionGroup', groupId: s.id, position: s.position };
    const type = s.kind === 'add' ? 'AddSectionToGroup' : 'RemoveSectionFromGroup';
    return { ...base, type, groupId: s.group, sectionId: s.id };
  };

  it('stays exact through any sequence of moves, sorts and groupings of sections and groups', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (sequence) => {
        let events: SiteEvent[] = [
          created,
          ...sections.map((id) => sectionAdded(id, id, id, [{ id: `ss-${id}`, spaceId: 'sp', path: id }])),
          groupAdded('g1', 'One', ['s2']),
          groupAdded('g2', 'Two', []),
        ];
        let model: Model = { top: ['s1', 's3', 's4', 'g1', 'g2'], groups: { g1: ['s2'], g2: [] } };
        for (const s of sequence) {
          const state = fold(siteDecider, events);
          const next = modelStep(model, s);
          if (next === 'refused') {
            expect(() => siteDecider.decide(commandOf(s), state)).toThrow();
            continue;
          }
          events = [...events, ...siteDecider.decide(commandOf(s), state)];
          model = next;
          const after = order(fold(siteDecider, events));
          expect(after.top).toEqual(model.top);
          expect(after.groups).toEqual(model.groups);
          expect(after.sections).toEqual(model.top.flatMap((id) => model.groups[id] ?? [id]));
        }
      }),
      { numRuns: 300 },
    );
  });
});
