import type { SiteAdaptiveJSONSchema } from '@gitbook/api';
import { addUser, useTestApp } from '../support/app-harness';
import { logHead } from '../support/http-checks';

const UNSIGNED = 'Unsigned claims of the site visitor.';

/** A schema of boolean claims, signed and unsigned. */
const schemaOf = (signed: string[], unsigned: string[] = []) =>
  ({
    type: 'object',
    properties: {
      ...Object.fromEntries(signed.map((name) => [name, { type: 'boolean', description: `Is ${name}` }])),
      unsigned: {
        type: 'object',
        description: UNSIGNED,
        properties: Object.fromEntries(
          unsigned.map((name) => [name, { type: 'boolean', description: `Says ${name}` }]),
        ),
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  }) as unknown as SiteAdaptiveJSONSchema;

const messageOf = (body: unknown) => (body as { error: { message: string } }).error.message;

describe('adaptive content over HTTP', () => {
  const current = useTestApp();

  /** A new site of the test organization, with GitBook's client of its organizations and its API path. */
  const setup = async (title: string) => {
    const { organizationId: org, api: client } = current();
    const site = (await client().orgs.createSite(org, { title })).data;
    return { app: current(), org, api: client().orgs, site, base: `/v1/orgs/${org}/sites/${site.id}` };
  };

  it("answers GitBook's default schema until one is set, then the one set, with its template conditions", async () => {
    const { app, org, api, site } = await setup('Adaptive');
    const initial = (await api.getSiteAdaptiveSchema(org, site.id)).data;
    expect(initial).toEqual({
      object: 'site-adaptive-schema',
      jsonSchema: {
        type: 'object',
        properties: {
          unsigned: { type: 'object', description: UNSIGNED, properties: {}, additionalProperties: false },
        },
        additionalProperties: false,
      },
      updatedAt: site.createdAt,
    });
    expect((await api.listSiteAdaptiveTemplateConditions(org, site.id)).data).toEqual({ items: [] });

    const jsonSchema = schemaOf(['beta', 'early-access'], ['optOut']);
    const replaced = (
      await api.updateSiteAdaptiveSchema(org, site.id, {
        jsonSchema: {
          $schema: 'http://json-schema.org/draft-07/schema#',
          ...jsonSchema,
        } as SiteAdaptiveJSONSchema,
      })
    ).data;
    expect(replaced).toEqual({
      object: 'site-adaptive-schema',
      jsonSchema: { $schema: 'http://json-schema.org/draft-07/schema#', ...jsonSchema },
      updatedAt: expect.any(String),
    });
    expect((await api.getSiteAdaptiveSchema(org, site.id)).data).toEqual(replaced);
    expect((await api.listSiteAdaptiveTemplateConditions(org, site.id)).data.items).toEqual([
      { condition: 'visitor.claims.beta', description: expect.stringContaining('Is beta') },
      {
        condition: 'visitor.claims["early-access"]',
        description: expect.stringContaining('Is early-access'),
      },
      { condition: 'visitor.claims.unsigned.optOut', description: expect.stringContaining('Says optOut') },
    ]);

    // The same schema again records nothing.
    const head = await logHead(app);
    const again = await api.updateSiteAdaptiveSchema(org, site.id, {
      jsonSchema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        ...jsonSchema,
      } as SiteAdaptiveJSONSchema,
    });
    expect(again.data).toEqual(replaced);
    expect(await logHead(app)).toBe(head);
  });

  it('refuses a schema of other than boolean claims with a 400 naming where, and writes nothing', async () => {
    const { app, site, base } = await setup('Adaptive refusals');
    const path = `${base}/adaptive-schema`;
    const good = schemaOf(['beta']) as unknown as Record<string, unknown>;
    const properties = good.properties as Record<string, unknown>;
    const cases: [unknown, RegExp][] = [
      [{}, /^jsonSchema/],
      [{ jsonSchema: 'object' }, /^jsonSchema/],
      [
        {
          jsonSchema: {
            ...good,
            properties: { ...properties, plan: { type: 'string', description: 'Plan' } },
          },
        },
        /^jsonSchema\.properties\.plan must be a boolean claim/,
      ],
      [
        { jsonSchema: { ...good, properties: { ...properties, plan: { type: 'boolean' } } } },
        /^jsonSchema\.properties\.plan must be a boolean claim/,
      ],
      [
        {
          jsonSchema: {
            ...good,
            properties: {
              unsigned: {
                type: 'object',
                description: UNSIGNED,
                properties: { n: { type: 'number', description: 'N' } },
                additionalProperties: false,
              },
            },
          },
        },
        /^jsonSchema\.properties\.unsigned\.properties\.n must be a boolean claim/,
      ],
      [{ jsonSchema: { ...good, additionalProperties: true } }, /^jsonSchema\.additionalProperties/],
      [{ jsonSchema: { ...good, type: 'array' } }, /^jsonSchema\.type/],
      [{ jsonSchema: { type: 'object', properties: {} } }, /^jsonSchema\.additionalProperties is required/],
    ];
    for (const [sent, names] of cases) {
      const head = await logHead(app);
      const reply = await app.http('PUT', path, { body: sent });
      expect({ sent, status: reply.status }).toEqual({ sent, status: 400 });
      expect(messageOf(reply.body)).toMatch(names);
      expect(await logHead(app)).toBe(head);
    }
    expect((await app.api().orgs.getSiteAdaptiveSchema(app.organizationId, site.id)).data.updatedAt).toBe(
      site.createdAt,
    );
  });

  it('lets members read the schema and only admins replace it; records each replacement', async () => {
    const { app, org, site, base } = await setup('Adaptive roles');
    const path = `${base}/adaptive-schema`;
    const reader = await addUser(app, { organizationId: org, role: 'read' });
    const creator = await addUser(app, { organizationId: org, role: 'create' });
    expect((await app.http('GET', path, { token: reader.token })).status).toBe(200);
    expect((await app.http('GET', `${path}/template-conditions`, { token: reader.token })).status).toBe(200);
    const body = { jsonSchema: schemaOf(['beta']) };
    expect((await app.http('PUT', path, { token: creator.token, body })).status).toBe(403);
    expect((await app.http('PUT', path, { body })).status).toBe(200);
    const events = (await app.http('GET', `/v1/orgs/${org}/audit-events?limit=100`)).body as {
      items: { action: string; target?: { id: string } }[];
    };
    expect(events.items.filter((e) => e.target?.id === site.id).map((e) => e.action)).toContain(
      'site.adaptive_schema_replaced',
    );
  });

  it('sets, answers and removes conditions of site spaces and sections, checked against the schema', async () => {
    const { app, org, api, site, base } = await setup('Conditional');
    await api.updateSiteAdaptiveSchema(org, site.id, { jsonSchema: schemaOf(['beta'], ['optOut']) });
    const spaceId = (await api.createSpace(org, { title: 'Conditional guide' })).data.id;
    const siteSpace = (await api.addSpaceToSite(org, site.id, { spaceId })).data;

    const condition = 'visitor.claims.beta && !visitor.claims.unsigned.optOut';
    const set = (await api.updateSiteSpaceById(org, site.id, siteSpace.id, { condition })).data;
    expect(set).toMatchObject({ id: siteSpace.id, condition });
    expect((await api.listSiteSpaces(org, site.id)).data.items[0]).toMatchObject({ condition });
    // Omitted, it stays; null removes it.
    const renamed = (await api.updateSiteSpaceById(org, site.id, siteSpace.id, { path: 'guide' })).data;
    expect(renamed).toMatchObject({ path: 'guide', condition });
    const removed = (await api.updateSiteSpaceById(org, site.id, siteSpace.id, { condition: null })).data;
    expect(removed).not.toHaveProperty('condition');

    const otherSpace = (await api.createSpace(org, { title: 'Conditional API' })).data.id;
    const section = (await api.addSectionToSite(org, site.id, { spaceId: otherSpace })).data;
    const sectioned = (
      await api.updateSiteSectionById(org, site.id, section.id, { condition: 'visitor.claims.beta == true' })
    ).data;
    expect(sectioned).toMatchObject({ id: section.id, condition: 'visitor.claims.beta == true' });
    const structure = (await api.getSiteStructure(org, site.id)).data;
    expect(structure.structure.find((s) => s.id === section.id)).toMatchObject({
      condition: 'visitor.claims.beta == true',
    });

    // The schema cannot drop a claim a condition names.
    const head = await logHead(app);
    const dropping = await app.http('PUT', `${base}/adaptive-schema`, { body: { jsonSchema: schemaOf([]) } });
    expect(dropping.status).toBe(400);
    expect(messageOf(dropping.body)).toMatch(new RegExp(`^jsonSchema: the site section ${section.id}`));
    expect(await logHead(app)).toBe(head);

    const cleared = (await api.updateSiteSectionById(org, site.id, section.id, { condition: null })).data;
    expect(cleared).not.toHaveProperty('condition');
    expect(
      (await app.http('PUT', `${base}/adaptive-schema`, { body: { jsonSchema: schemaOf([]) } })).status,
    ).toBe(200);
  });

  it('refuses a condition that names an unknown claim, does not parse or leaves the subset, naming condition', async () => {
    const { app, org, api, site, base } = await setup('Conditions refused');
    await api.updateSiteAdaptiveSchema(org, site.id, { jsonSchema: schemaOf(['beta']) });
    const spaceId = (await api.createSpace(org, { title: 'Refused guide' })).data.id;
    const siteSpace = (await api.addSpaceToSite(org, site.id, { spaceId })).data;
    const section = (await api.addSectionToSite(org, site.id, { spaceId })).data;
    const targets = [`${base}/site-spaces/${siteSpace.id}`, `${base}/sections/${section.id}`];
    const cases: [unknown, RegExp][] = [
      ['visitor.claims.admin', /^condition: visitor\.claims\.admin is not a claim/],
      ['visitor.claims.unsigned.beta', /^condition: visitor\.claims\.unsigned\.beta is not a claim/],
      ['visitor.claims.beta &&', /^condition: it does not parse/],
      ['alert(visitor.claims.beta)', /^condition: calling a function is not allowed/],
      ['visitor.claims.beta = true', /^condition: it does not parse/],
      ['visitor.claims.beta ? 1 : 0', /^condition: ConditionalExpression is not allowed/],
      ['visitor.claims.beta == "yes"', /^condition: visitor\.claims\.beta is a boolean claim/],
      ['', /^condition/],
      ['x'.repeat(1025), /^condition/],
      [42, /^condition/],
    ];
    for (const path of targets)
      for (const [condition, names] of cases) {
        const head = await logHead(app);
        const reply = await app.http('PATCH', path, { body: { condition } });
        expect({ path, condition, status: reply.status }).toEqual({ path, condition, status: 400 });
        expect(messageOf(reply.body)).toMatch(names);
        expect(await logHead(app)).toBe(head);
      }
  });
});
