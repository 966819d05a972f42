import { SiteVisibility } from '@gitbook/api';
import type { FeatureTour } from '../../test/support/endpoint-tour';

/**
 * Every route of sites, for the endpoint tour (test/support/endpoint-tour.ts finds this file by its
 * name), through GitBook's client: each write checked by a following read, each 2xx body by its schema.
 */
export const tour: FeatureTour = async ({ api, http, org }) => {
  const { data: created } = await api.orgs.createSite(org, {
    title: 'Tour site',
    visibility: SiteVisibility.Unlisted,
  });
  expect(created).toMatchObject({ object: 'site', title: 'Tour site', type: 'basic', published: false });
  const listed = await api.orgs.listSites(org, { published: false });
  expect(listed.data.items.map((site) => site.id)).toContain(created.id);

  const { data: updated } = await api.orgs.updateSiteById(org, created.id, {
    title: 'Tour site renamed',
    basename: 'tour',
    proxy: 'company.com/docs',
  });
  expect(updated).toMatchObject({
    title: 'Tour site renamed',
    basename: 'tour',
    proxy: { origin: 'company.com/docs' },
  });
  expect((await api.orgs.getSiteById(org, created.id)).data).toMatchObject({ title: 'Tour site renamed' });

  const { data: published } = await api.orgs.publishSite(org, created.id);
  expect(published).toMatchObject({ published: true, urls: { published: 'https://company.com/docs' } });
  const { data: unpublished } = await api.orgs.unpublishSite(org, created.id);
  expect(unpublished).toMatchObject({ published: false });

  const defaults = (await api.orgs.getSiteCustomizationById(org, created.id)).data;
  expect(defaults).not.toHaveProperty('updatedAt');
  const customized = (
    await api.orgs.updateSiteCustomizationById(org, created.id, {
      ...defaults,
      title: 'Tour docs',
      styling: { ...defaults.styling, primaryColor: { light: '#FF0000', dark: '#00FF00' } },
    })
  ).data;
  expect(customized).toMatchObject({ title: 'Tour docs', updatedAt: expect.any(String) });
  expect((await api.orgs.getSiteCustomizationById(org, created.id)).data).toEqual(customized);

  const { data: link } = await api.orgs.createSiteShareLink(org, created.id, { name: 'Tour link' });
  expect(link).toMatchObject({ object: 'share-link', name: 'Tour link', active: true });
  const links = await api.orgs.listSiteShareLinks(org, created.id);
  expect(links.data.items.map((l) => l.id)).toEqual([link.id]);
  const { data: off } = await api.orgs.updateSiteShareLinkById(org, created.id, link.id, { active: false });
  expect(off).toMatchObject({ active: false });
  const linkPath = `/v1/orgs/${org}/sites/${created.id}/share-links/${link.id}`;
  expect((await http('DELETE', linkPath)).status).toBe(205);
  expect((await http('PATCH', linkPath, { active: true })).status).toBe(404);

  const { data: auth } = await api.orgs.getSitePublishingAuthById(org, created.id);
  expect(auth).toMatchObject({ object: 'publishing-auth', backend: 'custom' });
  const { data: withUrls } = await api.orgs.updateSitePublishingAuthById(org, created.id, {
    backend: 'custom',
    fallbackURL: 'https://company.com/login',
  });
  expect(withUrls).toMatchObject({ fallbackURL: 'https://company.com/login', privateKey: auth.privateKey });
  const { data: regenerated } = await api.orgs.regenerateSitePublishingAuthById(org, created.id);
  expect(regenerated.privateKey).not.toBe(auth.privateKey);

  await adaptiveTour({ api, org }, created.id);
  await structureTour({ api, http, org }, created.id);

  expect((await http('DELETE', `/v1/orgs/${org}/sites/${created.id}`)).status).toBe(205);
  expect((await http('GET', `/v1/orgs/${org}/sites/${created.id}`)).status).toBe(404);
};

/** The site's adaptive schema, replaced and read back, and the template conditions it offers. */
const adaptiveTour = async (
  { api, org }: Pick<Parameters<FeatureTour>[0], 'api' | 'org'>,
  siteId: string,
) => {
  const initial = (await api.orgs.getSiteAdaptiveSchema(org, siteId)).data;
  expect(initial).toMatchObject({ object: 'site-adaptive-schema', jsonSchema: { type: 'object' } });
  const unsigned = initial.jsonSchema.properties.unsigned;
  const jsonSchema = {
    ...initial.jsonSchema,
    properties: { beta: { type: 'boolean' as const, description: 'Beta testers' }, unsigned },
  };
  const replaced = (await api.orgs.updateSiteAdaptiveSchema(org, siteId, { jsonSchema })).data;
  expect(replaced.jsonSchema).toEqual(jsonSchema);
  expect((await api.orgs.getSiteAdaptiveSchema(org, siteId)).data).toEqual(replaced);
  const conditions = (await api.orgs.listSiteAdaptiveTemplateConditions(org, siteId)).data.items;
  expect(conditions.map((c) => c.condition)).toEqual(['visitor.claims.beta']);
};

/** The site's spaces, sections and structure: each write read back, the deprecated moves included. */
const structureTour = async (
  { api, http, org }: Pick<Parameters<FeatureTour>[0], 'api' | 'http' | 'org'>,
  siteId: string,
) => {
  const spaceId = (await api.orgs.createSpace(org, { title: 'Tour guide' })).data.id;
  const otherId = (await api.orgs.createSpace(org, { title: 'Tour API' })).data.id;
  const siteSpace = (await api.orgs.addSpaceToSite(org, siteId, { spaceId })).data;
  expect(siteSpace).toMatchObject({ object: 'site-space', path: 'tour-guide', default: true });
  const spaceChange = { path: 'guide', condition: 'visitor.claims.beta' };
  const patched = (await api.orgs.updateSiteSpaceById(org, siteId, siteSpace.id, spaceChange)).data;
  expect(patched).toMatchObject(spaceChange);
  const publishing = (await api.orgs.listSites(org, { space: spaceId, title: 'tour' })).data.items;
  expect(publishing.map((site) => site.id)).toEqual([siteId]);
  const second = (await api.orgs.addSpaceToSite(org, siteId, { spaceId: otherId })).data;
  const base = `/v1/orgs/${org}/sites/${siteId}`;
  const moved = await http('POST', `${base}/site-spaces/${second.id}/move`, {
    position: { before: { type: 'site-space', siteSpace: siteSpace.id } },
  });
  expect(moved.body).toMatchObject({ id: second.id });
  const listed = (await api.orgs.listSiteSpaces(org, siteId)).data.items.map((s) => s.id);
  expect(listed).toEqual([second.id, siteSpace.id]);

  const section = (await api.orgs.addSectionToSite(org, siteId, { spaceId: otherId, title: 'Tour section' }))
    .data;
  expect(section).toMatchObject({ object: 'site-section', title: 'Tour section' });
  const sectionChange = { title: 'Tour reference', condition: '!visitor.claims.beta' };
  const renamed = (await api.orgs.updateSiteSectionById(org, siteId, section.id, sectionChange)).data;
  expect(renamed).toMatchObject(sectionChange);
  const sections = (await api.orgs.listSiteSections(org, siteId)).data.items;
  expect(sections.map((s) => s.id)).toContain(section.id);
  const first = sections[0].id;
  const sectionMoved = await http('POST', `${base}/sections/${section.id}/move`, {
    position: { before: { type: 'site-section', siteSection: first } },
  });
  expect(sectionMoved.status).toBe(200);
  const sorted = await api.orgs.sortSiteStructure(org, siteId, {
    item: { type: 'site-section', id: section.id },
    position: { after: { type: 'site-section', id: first } },
  });
  expect(sorted.data).toMatchObject({ id: section.id });
  const structure = (await api.orgs.getSiteStructure(org, siteId)).data;
  expect(structure.type).toBe('sections');
  expect(structure.structure.map((s) => s.id)).toEqual([first, section.id]);

  const group = (
    await api.orgs.addSectionGroupToSite(org, siteId, { title: 'Tour group', sections: [section.id] })
  ).data;
  expect(group).toMatchObject({ object: 'site-section-group', title: 'Tour group' });
  const groups = (await api.orgs.listSiteSectionGroups(org, siteId)).data.items;
  expect(groups.map((g) => g.id)).toEqual([group.id]);
  const regrouped = (
    await api.orgs.updateSiteSectionGroupById(org, siteId, group.id, { title: 'Tour guides' })
  ).data;
  expect(regrouped.title).toBe('Tour guides');
  const groupPath = `${base}/section-groups/${group.id}`;
  const joined = await http('POST', `${groupPath}/sections`, { sectionId: first });
  expect(joined.status).toBe(201);
  expect((await http('DELETE', `${groupPath}/sections/${first}`)).status).toBe(205);
  const groupMoved = await http('POST', `${groupPath}/move`, {
    position: { before: { type: 'site-section', id: first } },
  });
  expect(groupMoved.status).toBe(200);
  const grouped = (await api.orgs.getSiteStructure(org, siteId)).data.structure;
  expect(grouped.map((item) => item.id)).toEqual([group.id, first]);
  expect((await http('DELETE', groupPath)).status).toBe(205);

  expect((await http('DELETE', `${base}/site-spaces/${siteSpace.id}`)).status).toBe(205);
  expect((await http('DELETE', `${base}/sections/${section.id}`)).status).toBe(205);
  expect((await api.orgs.getSiteStructure(org, siteId)).data.structure.map((s) => s.id)).toEqual([first]);
};
