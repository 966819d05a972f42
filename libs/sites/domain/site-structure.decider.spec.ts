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
