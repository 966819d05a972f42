import { spec } from '@app/platform/domain/decider.testing';
import { type AdaptiveJsonSchema, UNSIGNED_DESCRIPTION } from './adaptive-schema';
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

const spaceAdded: SiteEvent = {
  type: 'SiteSpaceAdded',
  data: { ...ref, siteSpace: { id: 'ss1', spaceId: 's1', path: 'guide' }, addedAt: ISO },
};
const sectionAdded: SiteEvent = {
  type: 'SiteSectionAdded',
  data: {
    ...ref,
    section: {
      id: 'sc1',
      title: 'Guide',
      path: 'guide',
      siteSpaces: [{ id: 'ss2', spaceId: 's2', path: 'g' }],
    },
    addedAt: ISO,
  },
};
const schemaOf = (signed: string[], unsigned: string[] = []): AdaptiveJsonSchema => ({
  type: 'object',
  properties: {
    ...Object.fromEntries(signed.map((name) => [name, { type: 'boolean', description: name }])),
    unsigned: {
      type: 'object',
      description: UNSIGNED_DESCRIPTION,
      properties: Object.fromEntries(unsigned.map((name) => [name, { type: 'boolean', description: name }])),
      additionalProperties: false,
    },
  },
  additionalProperties: false,
});
const replace = (jsonSchema: unknown): SiteCommand => ({
  type: 'ReplaceSiteAdaptiveSchema',
  organization: 'o1',
  jsonSchema,
  at: AT,
});
const replaced = (jsonSchema: AdaptiveJsonSchema): SiteEvent => ({
  type: 'SiteAdaptiveSchemaReplaced',
  data: { ...ref, jsonSchema, updatedAt: ISO },
});
const updateSiteSpace = (condition: string | null | undefined): SiteCommand => ({
  type: 'UpdateSiteSpace',
  organization: 'o1',
  siteSpaceId: 'ss1',
  input: condition === undefined ? {} : { condition },
  at: AT,
});
const updateSection = (condition: string | null): SiteCommand => ({
  type: 'UpdateSiteSection',
  organization: 'o1',
  sectionId: 'sc1',
  input: { condition },
  at: AT,
});
const siteSpaceUpdated = (condition: string | null): SiteEvent => ({
  type: 'SiteSpaceUpdated',
  data: { ...ref, siteSpaceId: 'ss1', changes: { condition }, updatedAt: ISO },
});
const sectionUpdated = (condition: string | null): SiteEvent => ({
  type: 'SiteSectionUpdated',
  data: { ...ref, sectionId: 'sc1', changes: { condition }, updatedAt: ISO },
});

describe("a site's adaptive schema", () => {
  const site = spec(siteDecider);
  const beta = schemaOf(['beta'], ['optOut']);

  it('replaces it whole, and records nothing when it is the same again', () => {
    site
      .given([created])
      .when(replace(beta))
      .thenEmits([replaced(beta)]);
    site
      .given([created, replaced(beta)])
      .when(replace(schemaOf(['beta'], ['optOut'])))
      .thenNothing();
  });

  it('refuses a schema of other than boolean claims, naming where', () => {
    const plan = {
      ...beta,
      properties: { ...beta.properties, plan: { type: 'string', description: 'Plan' } },
    };
    site
      .given([created])
      .when(replace(plan))
      .thenThrows(
        'invalid',
        'jsonSchema.properties.plan must be a boolean claim: {"type": "boolean", "description": "…"}',
      );
    site
      .given([created])
      .when(replace({ type: 'object' }))
      .thenThrows('invalid', /^jsonSchema\.properties is required/);
  });

  it('refuses one that drops a claim a condition of the site names', () => {
    site
      .given([created, replaced(beta), spaceAdded, siteSpaceUpdated('visitor.claims.unsigned.optOut')])
      .when(replace(schemaOf(['beta'])))
      .thenThrows(
        'invalid',
        /^jsonSchema: the site space ss1 would lose a claim it names \(condition: visitor\.claims\.unsigned\.optOut is not a claim/,
      );
    site
      .given([created, replaced(beta), sectionAdded, sectionUpdated('visitor.claims.beta')])
      .when(replace(schemaOf([], ['optOut'])))
      .thenThrows('invalid', /^jsonSchema: the site section sc1/);
  });

  it('is not found on a site deleted or of another organization', () => {
    site.given([]).when(replace(beta)).thenThrows('not_found');
    site
      .given([created])
      .when({ ...replace(beta), organization: 'o2' } as SiteCommand)
      .thenThrows('not_found');
  });
});

describe('conditions of site spaces and sections', () => {
  const site = spec(siteDecider);
  const withSchema = [created, replaced(schemaOf(['beta'], ['optOut'])), spaceAdded];

  it("sets a condition over the schema's claims, removes it with null, and leaves it when omitted", () => {
    site
      .given(withSchema)
      .when(updateSiteSpace('visitor.claims.beta && !visitor.claims.unsigned.optOut'))
      .thenEmits([siteSpaceUpdated('visitor.claims.beta && !visitor.claims.unsigned.optOut')]);
    const set = [...withSchema, siteSpaceUpdated('visitor.claims.beta')];
    site.given(set).when(updateSiteSpace('visitor.claims.beta')).thenNothing();
    site.given(set).when(updateSiteSpace(undefined)).thenNothing();
    site
      .given(set)
      .when(updateSiteSpace(null))
      .thenEmits([siteSpaceUpdated(null)]);
    site.given(withSchema).when(updateSiteSpace(null)).thenNothing();
    const state = site
      .given(set)
      .when(updateSiteSpace(null))
      .thenEmits([siteSpaceUpdated(null)]);
    expect(state.status === 'active' && state.structure.siteSpaces).toEqual([
      { id: 'ss1', spaceId: 's1', path: 'guide' },
    ]);
  });

  it("sets and removes a section's condition", () => {
    const sections = [created, replaced(schemaOf(['beta'])), sectionAdded];
    site
      .given(sections)
      .when(updateSection('visitor.claims.beta'))
      .thenEmits([sectionUpdated('visitor.claims.beta')]);
    site
      .given([...sections, sectionUpdated('visitor.claims.beta')])
      .when(updateSection(null))
      .thenEmits([sectionUpdated(null)]);
  });

  it('refuses a condition naming a claim the schema lacks, that does not parse, or outside the subset', () => {
    site
      .given(withSchema)
      .when(updateSiteSpace('visitor.claims.admin'))
      .thenThrows('invalid', /^condition: visitor\.claims\.admin is not a claim/);
    site
      .given([created, spaceAdded])
      .when(updateSiteSpace('visitor.claims.beta'))
      .thenThrows('invalid', /^condition: /);
    site
      .given(withSchema)
      .when(updateSiteSpace('visitor.claims.beta &&'))
      .thenThrows('invalid', /^condition: it does not parse/);
    site
      .given(withSchema)
      .when(updateSiteSpace('fetch("x")'))
      .thenThrows('invalid', /^condition: calling a function/);
    site
      .given([created, sectionAdded])
      .when(updateSection('visitor.claims.beta'))
      .thenThrows('invalid', /^condition: /);
  });
});
