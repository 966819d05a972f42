import { spec } from '@app/platform/domain/decider.testing';
import { type SiteCommand, type SiteEvent, siteDecider } from './site.decider';

const AT = Date.parse('2026-01-01T00:00:00.000Z');
const ISO = '2026-01-01T00:00:00.000Z';
const ref = { siteId: 'w1', organization: 'o1' };
const create = (input: Extract<SiteCommand, { type: 'CreateSite' }>['input']): SiteCommand => ({
  type: 'CreateSite',
  ...ref,
  input,
  at: AT,
});
const update = (input: Extract<SiteCommand, { type: 'UpdateSite' }>['input']): SiteCommand => ({
  type: 'UpdateSite',
  organization: 'o1',
  input,
  at: AT,
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
const updated = (changes: Extract<SiteEvent, { type: 'SiteUpdated' }>['data']['changes']): SiteEvent => ({
  type: 'SiteUpdated',
  data: { ...ref, changes, updatedAt: ISO },
});
const published: SiteEvent = { type: 'SitePublished', data: { ...ref, publishedAt: ISO } };
const deleted: SiteEvent = { type: 'SiteDeleted', data: { ...ref, deletedAt: ISO } };

describe('site decider', () => {
  const site = spec(siteDecider);

  it('creates a basic, public, unpublished site unless told otherwise', () => {
    site.when(create({ title: 'Docs' })).thenEmits([created]);
    site.when(create({ title: 'Docs', type: 'premium', visibility: 'unlisted' })).thenEmits([
      {
        type: 'SiteCreated',
        data: { ...created.data, type: 'premium', visibility: 'unlisted' },
      } as SiteEvent,
    ]);
  });

  it('refuses a title outside 2 to 128 characters', () => {
    site.when(create({ title: 'D' })).thenThrows('invalid', /title/);
    site.when(create({ title: '  ' })).thenThrows('invalid', /title/);
    site.when(create({ title: 'x'.repeat(129) })).thenThrows('invalid', /title/);
  });

  it('updates what changes, and nothing when nothing does', () => {
    site
      .given([created])
      .when(update({ title: 'Guides', basename: 'guides', adaptiveContent: { enabled: true } }))
      .thenEmits([updated({ title: 'Guides', basename: 'guides', adaptiveContent: true })]);
    site
      .given([created])
      .when(update({ title: 'Docs', agentsContext: 'included' }))
      .thenEmits([]);
    site
      .given([created])
      .when(update({ agentsContext: 'excluded' }))
      .thenEmits([updated({ agentsContext: 'excluded' })]);
  });

  it('checks the basename and the proxy', () => {
    site
      .given([created])
      .when(update({ basename: 'x'.repeat(101) }))
      .thenThrows('invalid', /basename/);
    site
      .given([created])
      .when(update({ proxy: 'https://company.com/docs' }))
      .thenThrows('invalid', /proxy/);
    site
      .given([created])
      .when(update({ proxy: 'company.com' }))
      .thenThrows('invalid', /proxy/);
    site
      .given([created])
      .when(update({ proxy: 'company.com/docs' }))
      .thenEmits([updated({ proxy: 'company.com/docs' })]);
  });

  it('removes the proxy with null, recorded as null', () => {
    const proxied = updated({ proxy: 'company.com/docs' });
    site
      .given([created, proxied])
      .when(update({ proxy: null }))
      .thenEmits([updated({ proxy: null })]);
    site
      .given([created])
      .when(update({ proxy: null }))
      .thenEmits([]);
  });

  it('takes as defaults only the site space and section of its own', () => {
    site
      .given([created])
      .when(update({ defaultSiteSpace: 'ss1' }))
      .thenThrows('invalid', /defaultSiteSpace/);
    site
      .given([created])
      .when(update({ defaultSiteSection: 'sc1' }))
      .thenThrows('invalid', /defaultSiteSection/);
  });

  it('publishes and unpublishes, each once', () => {
    const publish: SiteCommand = { type: 'PublishSite', organization: 'o1', at: AT };
    const unpublish: SiteCommand = { type: 'UnpublishSite', organization: 'o1', at: AT };
    site.given([created]).when(publish).thenEmits([published]);
    site.given([created, published]).when(publish).thenEmits([]);
    site
      .given([created, published])
      .when(unpublish)
      .thenEmits([{ type: 'SiteUnpublished', data: { ...ref, unpublishedAt: ISO } }]);
    site.given([created]).when(unpublish).thenEmits([]);
  });

  it('replaces its customization whole, and records nothing when it is the same', () => {
    const customization = { title: 'Docs', ai: { mode: 'none' } };
    const customize: SiteCommand = {
      type: 'UpdateSiteCustomization',
      organization: 'o1',
      customization,
      at: AT,
    };
    const customized: SiteEvent = {
      type: 'SiteCustomizationUpdated',
      data: { ...ref, customization, updatedAt: ISO },
    };
    site.given([created]).when(customize).thenEmits([customized]);
    site.given([created, customized]).when(customize).thenEmits([]);
    site.given([created, deleted]).when(customize).thenThrows('not_found');
  });

  it('deletes a live site of its organization, and nothing else', () => {
    site.given([created]).when({ type: 'DeleteSite', organization: 'o1', at: AT }).thenEmits([deleted]);
    site
      .given([created, deleted])
      .when({ type: 'DeleteSite', organization: 'o1', at: AT })
      .thenThrows('not_found');
    site.given([created]).when({ type: 'DeleteSite', organization: 'o2', at: AT }).thenThrows('not_found');
    site
      .given([created, deleted])
      .when({ type: 'PublishSite', organization: 'o1', at: AT })
      .thenThrows('not_found');
    site.when(update({})).thenThrows('not_found');
  });
});
