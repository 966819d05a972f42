import { spec } from '@app/platform/domain/decider.testing';
import { type AdaptiveJsonSchema, UNSIGNED_DESCRIPTION } from './adaptive-schema';
import { type SiteCommand, type SiteEvent, siteDecider } from './site.decider';

const AT = Date.parse('2026-01-01T00:00:00.000Z');
const ISO = '2026-01-01T00:00:00.000Z';
const ref = { siteId: 'w1', organization: 'o1' };
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
