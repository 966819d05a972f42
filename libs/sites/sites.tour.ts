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

  expect((await http('DELETE', `/v1/orgs/${org}/sites/${created.id}`)).status).toBe(205);
  expect((await http('GET', `/v1/orgs/${org}/sites/${created.id}`)).status).toBe(404);
};
