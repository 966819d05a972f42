import type { SiteSection, SiteSectionGroup } from '@gitbook/api';
import { addUser, useTestApp } from '../support/app-harness';

describe('site section groups over HTTP', () => {
  const current = useTestApp();

  /** A site of three sections (One, Two, Three), each with a site space. */
  const setup = async (title: string) => {
    const app = current();
    const org = app.organizationId;
    const api = app.api().orgs;
    const site = (await api.createSite(org, { title })).data;
    const section = async (name: string) => {
      const spaceId = (await api.createSpace(org, { title: name })).data.id;
      return (await api.addSectionToSite(org, site.id, { spaceId, title: name })).data;
    };
    const [one, two, three] = [await section('One'), await section('Two'), await section('Three')];
    const base = `/v1/orgs/${org}/sites/${site.id}`;
    /** The top level: each section's id, or a group's with its sections'. */
    const shape = async () =>
      (await api.getSiteStructure(org, site.id)).data.structure.map((item) =>
        item.object === 'site-section-group'
          ? { [item.id]: (item as SiteSectionGroup).sections.map((s) => s.id) }
          : item.id,
      );
    return { app, org, api, site, base, one, two, three, shape };
  };

  it('adds, lists, updates, moves and deletes groups, and moves sections into and out of them', async () => {
    const { app, org, api, site, base, one, two, three, shape } = await setup('Grouped');
    const group = (
      await api.addSectionGroupToSite(org, site.id, {
        title: 'Guides',
        icon: 'book',
        sections: [three.id, one.id],
      })
    ).data;
    expect(group).toMatchObject({
      object: 'site-section-group',
      title: 'Guides',
      icon: 'book',
      draft: false,
    });
    expect(group.sections.map((s) => s.id)).toEqual([three.id, one.id]);
    expect(group.children.map((s) => s.id)).toEqual([three.id, one.id]);
    expect(group.sections[0]).toMatchObject({ object: 'site-section', sectionGroup: group.id });
    expect(await shape()).toEqual([two.id, { [group.id]: [three.id, one.id] }]);
    // Sections list every section in the order the site shows them, each naming its group.
    const sections = (await api.listSiteSections(org, site.id)).data.items as SiteSection[];
    expect(sections.map((s) => [s.id, s.sectionGroup])).toEqual([
      [two.id, undefined],
      [three.id, group.id],
      [one.id, group.id],
    ]);

    const empty = (await api.addSectionGroupToSite(org, site.id, { title: 'Empty' })).data;
    expect(empty.sections).toEqual([]);
    const page = (await api.listSiteSectionGroups(org, site.id, { limit: 1 })).data;
    expect(page.items.map((g) => g.id)).toEqual([group.id]);
    expect(page.next).toBeDefined();
    const rest = (await api.listSiteSectionGroups(org, site.id, { page: page.next?.page })).data;
    expect(rest.items.map((g) => g.id)).toEqual([empty.id]);

    const renamed = (
      await api.updateSiteSectionGroupById(org, site.id, group.id, { title: 'Manuals', icon: null })
    ).data;
    expect(renamed).toMatchObject({ id: group.id, title: 'Manuals' });
    expect(renamed).not.toHaveProperty('icon');

    // A section goes into a group from another, at its end; out of it, just after the group.
    const added = await app.http('POST', `${base}/section-groups/${empty.id}/sections`, {
      body: { sectionId: one.id },
    });
    expect(added.status).toBe(201);
    expect((added.body as SiteSectionGroup).sections.map((s) => s.id)).toEqual([one.id]);
    expect(await shape()).toEqual([two.id, { [group.id]: [three.id] }, { [empty.id]: [one.id] }]);
    const removed = await app.http('DELETE', `${base}/section-groups/${group.id}/sections/${three.id}`);
    expect(removed.status).toBe(205);
    expect(await shape()).toEqual([two.id, { [group.id]: [] }, three.id, { [empty.id]: [one.id] }]);

    const moved = await app.http('POST', `${base}/section-groups/${empty.id}/move`, {
      body: { position: { before: { type: 'site-section', id: two.id } } },
    });
    expect(moved.status).toBe(200);
    expect(moved.headers.get('deprecation')).toBe('true');
    expect((moved.body as SiteSectionGroup).id).toBe(empty.id);
    expect(await shape()).toEqual([{ [empty.id]: [one.id] }, two.id, { [group.id]: [] }, three.id]);

    // Sorting: a group among the top level, a section into a group by its pointer, or within it.
    const sortedGroup = await api.sortSiteStructure(org, site.id, {
      item: { type: 'site-section-group', id: group.id },
      position: { before: { type: 'site-section-group', id: empty.id } },
    });
    expect(sortedGroup.data).toMatchObject({ object: 'site-section-group', id: group.id });
    await api.sortSiteStructure(org, site.id, {
      item: { type: 'site-section', id: three.id },
      position: { after: { type: 'site-section', id: one.id } },
    });
    await api.sortSiteStructure(org, site.id, {
      item: { type: 'site-section', id: three.id },
      position: { before: { type: 'site-section', id: one.id } },
    });
    expect(await shape()).toEqual([{ [group.id]: [] }, { [empty.id]: [three.id, one.id] }, two.id]);
    await api.updateSiteSectionById(org, site.id, two.id, { siteSectionGroupId: group.id });
    expect(await shape()).toEqual([{ [group.id]: [two.id] }, { [empty.id]: [three.id, one.id] }]);
    await api.updateSiteSectionById(org, site.id, two.id, { siteSectionGroupId: null });
    expect(await shape()).toEqual([{ [group.id]: [] }, two.id, { [empty.id]: [three.id, one.id] }]);

    // Deleting a section takes it out of its group; deleting a group leaves its sections in its place.
    expect((await app.http('DELETE', `${base}/sections/${one.id}`)).status).toBe(205);
    expect(await shape()).toEqual([{ [group.id]: [] }, two.id, { [empty.id]: [three.id] }]);
    expect((await app.http('DELETE', `${base}/section-groups/${empty.id}`)).status).toBe(205);
    expect(await shape()).toEqual([{ [group.id]: [] }, two.id, three.id]);
    expect((await app.http('DELETE', `${base}/section-groups/${empty.id}`)).status).toBe(404);

    // A section added into a group goes to its end.
    const spaceId = (await api.createSpace(org, { title: 'Four' })).data.id;
    const four = (await api.addSectionToSite(org, site.id, { spaceId, siteSectionGroupId: group.id })).data;
    expect(four.sectionGroup).toBe(group.id);
    expect(await shape()).toEqual([{ [group.id]: [four.id] }, two.id, three.id]);

    const events = (await app.http('GET', `/v1/orgs/${org}/audit-events?limit=100`)).body as {
      items: { action: string; target?: { id: string } }[];
    };
    const actions = new Set(
      events.items.filter((e) => [group.id, empty.id].includes(e.target?.id ?? '')).map((e) => e.action),
    );
    expect([...actions].sort()).toEqual([
      'site.section_group_added',
      'site.section_group_moved',
      'site.section_group_removed',
      'site.section_group_updated',
    ]);
    const sectionActions = events.items.filter((e) => e.target?.id === three.id).map((e) => e.action);
    expect(sectionActions).toContain('site.section_moved');
  });

  it('refuses a section it does not have naming the field, changing nothing, and a member without the role', async () => {
    const { app, org, api, site, base, one, two, shape } = await setup('Guarded groups');
    const other = (await api.createSite(org, { title: 'Other site' })).data;
    const spaceId = (await api.createSpace(org, { title: 'Elsewhere' })).data.id;
    const foreign = (await api.addSectionToSite(org, other.id, { spaceId })).data;
    const group = (await api.addSectionGroupToSite(org, site.id, { title: 'Guides', sections: [one.id] }))
      .data;
    const before = await shape();

    const bad = [
      [
        await app.http('POST', `${base}/section-groups`, { body: { title: 'G', sections: [foreign.id] } }),
        'sections',
      ],
      [
        await app.http('POST', `${base}/section-groups`, { body: { title: 'G', sections: ['nope/'] } }),
        'sections',
      ],
      [await app.http('POST', `${base}/section-groups`, { body: { title: '' } }), 'title'],
      [await app.http('POST', `${base}/section-groups`, { body: { title: 'x'.repeat(101) } }), 'title'],
      [
        await app.http('POST', `${base}/section-groups`, { body: { title: 'G', parent: group.id } }),
        'parent',
      ],
      [
        await app.http('POST', `${base}/section-groups/${group.id}/sections`, {
          body: { sectionId: foreign.id },
        }),
        'sectionId',
      ],
      [
        await app.http('PATCH', `${base}/sections/${two.id}`, {
          body: { siteSectionGroupId: 'notAGroupHere0001' },
        }),
        'siteSectionGroupId',
      ],
      [
        await app.http('POST', `${base}/section-groups/${group.id}/move`, {
          body: { position: { before: { type: 'site-section', id: one.id } } },
        }),
        'position',
      ],
      [
        await app.http('PATCH', `${base}/structure/sort`, {
          body: {
            item: { type: 'site-section-group', id: group.id },
            position: { before: { type: 'site-space', id: one.siteSpaces[0].id } },
          },
        }),
        'position.before',
      ],
    ] as const;
    for (const [reply, field] of bad) {
      expect(reply.status).toBe(400);
      expect((reply.body as { error: { message: string } }).error.message).toContain(field);
    }
    expect(await shape()).toEqual(before);
    expect((await api.listSiteSectionGroups(org, site.id)).data.items.map((g) => g.id)).toEqual([group.id]);

    const notFound = [
      await app.http('PATCH', `${base}/section-groups/notAGroupHere0001`, { body: { title: 'X' } }),
      await app.http('DELETE', `${base}/section-groups/${group.id}/sections/${two.id}`),
      await app.http('DELETE', `${base}/section-groups/${group.id}/sections/${foreign.id}`),
      await app.http('POST', `/v1/orgs/${org}/sites/${other.id}/section-groups/${group.id}/move`, {
        body: {},
      }),
    ];
    expect(notFound.map((r) => r.status)).toEqual([404, 404, 404, 404]);

    const reader = await addUser(app, { organizationId: org, role: 'read' });
    const token = reader.token;
    expect((await app.http('GET', `${base}/section-groups`, { token })).status).toBe(200);
    const denied = [
      await app.http('POST', `${base}/section-groups`, { token, body: { title: 'G' } }),
      await app.http('PATCH', `${base}/section-groups/${group.id}`, { token, body: { title: 'G' } }),
      await app.http('DELETE', `${base}/section-groups/${group.id}`, { token }),
      await app.http('POST', `${base}/section-groups/${group.id}/sections`, {
        token,
        body: { sectionId: two.id },
      }),
    ];
    expect(denied.map((r) => r.status)).toEqual([403, 403, 403, 403]);
  });
});
