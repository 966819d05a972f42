import { useTestApp } from '../support/app-harness';
import { loadProjectRoutes, replyProblem, routeSchema } from '../support/checked-responses';
import { matchTemplate, operationAt, responseProblem, schemaProblem } from '../support/openapi';
import { routeTable, templateOf } from '../support/route-table';

// Not in e2e-mongo: it checks the response checks themselves (checked-responses.ts, openapi.ts), not the
// stores.

type Json = Record<string, unknown>;

/**
 * The checks every 2xx answer of the e2e suites goes through (checked-responses.ts, openapi.ts): that
 * they know every route the app serves, and that they refuse what they should, on real answers.
 */
describe('response checks', () => {
  const current = useTestApp();
  let space: Json;
  let spaces: Json;
  let details: Json;

  beforeAll(async () => {
    await loadProjectRoutes();
    const app = current();
    const org = app.organizationId;
    space = (await app.http('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Checked', emoji: '📘' } }))
      .body as Json;
    spaces = (await app.http('GET', `/v1/orgs/${org}/spaces?limit=1`)).body as Json;
    const events = (await app.http('GET', `/v1/orgs/${org}/audit-events?limit=1`)).body as { items: Json[] };
    details = (await app.http('GET', `/v1/orgs/${org}/audit-events/${events.items[0].id}`)).body as Json;
  });

  it('knows what every /v1 route the app serves answers: a GitBook operation or its own declaration', async () => {
    const declared = await loadProjectRoutes();
    const table = routeTable(current().built.app);
    const nest = new Map(table.all.map((route) => [route.key, route]));
    const routes = table.router
      .filter((key) => / \/v1(\/|$)/.test(key))
      .map((key) => {
        const [method, path] = key.split(' ');
        // Nest's routes as documented (the `*` of a page path is `{pagePath}`), Fastify's own as they are.
        const route = nest.get(key);
        const template = route ? templateOf(route) : path.replace(/:(\w+)/g, '{$1}');
        const handler = route ? `${route.controller}.${route.handler}` : 'served outside Nest';
        return { method, template: template.slice('/v1'.length), handler };
      });
    expect(routes.length).toBeGreaterThan(15);
    expect(routes).toContainEqual(
      expect.objectContaining({ method: 'GET', template: '/spaces/{spaceId}/content/path/{pagePath}' }),
    );
    const problems = routes
      .filter(({ method, template }) => !routeSchema(method, template))
      .map(
        ({ method, template, handler }) =>
          `${method} /v1${template} (${handler}): GitBook's OpenAPI document has no such route; say what it answers with @OwnShape(shape, schema?) on the handler (libs/platform/openapi/own-shape.ts)`,
      );
    for (const own of declared) {
      const where = `${own.method} /v1${own.template} (${own.declaredBy})`;
      // A declared route is one the app serves (the declarations are read from the controllers).
      const served = routes.filter(({ method }) => method === own.method);
      if (!matchTemplate(served, own.template))
        problems.push(`${where}: declared, but the app does not serve it`);
      // In place of GitBook's operation, its answers are checked against a schema too.
      if (own.replaces && !('schema' in own.answers))
        problems.push(
          `${where}: GitBook's document has the route; @OwnShape must name the schema it answers instead`,
        );
      if ('schema' in own.answers) {
        try {
          schemaProblem(own.answers.schema, {});
        } catch (error) {
          problems.push(`${where}: ${(error as Error).message}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('refuses a property the schema does not list, at any depth, through $ref and oneOf', () => {
    expect(responseProblem('getSpaceById', 200, space)).toBeUndefined();
    const refused = (body: Json) => responseProblem('getSpaceById', 200, body);
    expect(refused({ ...space, _internal: 1 })).toMatch(
      /\(body\) must NOT have unevaluated properties: "_internal"/,
    );
    expect(refused({ ...space, urls: { ...(space.urls as Json), _internal: 1 } })).toMatch(/\/urls /);
    expect(refused({ ...space, permissions: { ...(space.permissions as Json), x: true } })).toMatch(
      /\/permissions /,
    );
    // mergeRules is a oneOf of $refs: the branch that matched says what is listed.
    expect(refused({ ...space, mergeRules: { type: 'inherit', x: 1 } })).toMatch(/\/mergeRules /);
  });

  it('refuses a property the schema does not list in a list envelope and in its items', () => {
    const list = (body: Json) => responseProblem('listSpacesInOrganizationById', 200, body);
    expect(list(spaces)).toBeUndefined();
    expect(list({ ...spaces, total: 1 })).toMatch(/\(body\) must NOT have unevaluated properties: "total"/);
    expect(list({ ...spaces, next: { page: 'p', size: 1 } })).toMatch(/\/next /);
    const [first] = spaces.items as Json[];
    expect(list({ ...spaces, items: [{ ...first, _internal: 1 }] })).toMatch(/\/items\/0 /);
  });

  it('sees through allOf (AuditEventDetails extends AuditEvent) and keeps maps (its payload) open', () => {
    const check = (body: Json) => responseProblem('getOrganizationAuditEvent', 200, body);
    expect(check(details)).toBeUndefined();
    expect(check({ ...details, payload: { ...(details.payload as Json), anything: { at: ['all'] } } })).toBe(
      undefined,
    );
    expect(check({ ...details, _internal: 1 })).toMatch(/\(body\) must NOT have unevaluated properties/);
    expect(check({ ...details, actor: { ...(details.actor as Json), x: 1 } })).toMatch(/\/actor /);
  });

  it('checks the emoji format (libs/platform/domain/emoji.spec.ts has its cases)', () => {
    expect(responseProblem('getSpaceById', 200, { ...space, emoji: 'book' })).toMatch(
      /\/emoji must match format "emoji"/,
    );
  });

  it('refuses a status or a body the document does not allow for the operation', () => {
    expect(() => responseProblem('createSpace', 200, space)).toThrow(/createSpace has no 200 response/);
    expect(responseProblem('deleteSpaceById', 205, undefined)).toBeUndefined();
    expect(responseProblem('deleteSpaceById', 205, {})).toMatch(/has no body/);
    expect(responseProblem('getSpaceById', 200, undefined)).toMatch(/promises a body/);
  });

  it('finds the operation from the method and path, literal segments first; refuses unknown /v1 routes', () => {
    expect(operationAt('GET', '/orgs/o1/spaces')?.operationId).toBe('listSpacesInOrganizationById');
    expect(operationAt('GET', '/orgs/o1')?.operationId).toBe('getOrganizationById');
    const version = (id: string) => operationAt('GET', `/orgs/o1/openapi/api/versions/${id}`)?.operationId;
    expect(version('latest')).toBe('getLatestOpenAPISpecVersion');
    expect(version('v1')).toBe('getOpenAPISpecVersionById');
    // A page path is the rest of the URL, nested or encoded.
    for (const pagePath of ['intro', 'guides/intro', 'guides%2Fintro', 'a/b/c/']) {
      expect(operationAt('GET', `/spaces/s1/content/path/${pagePath}`)?.operationId).toBe('getPageByPath');
      expect(operationAt('GET', `/spaces/s1/change-requests/c1/content/path/${pagePath}`)?.operationId).toBe(
        'getPageInChangeRequestByPath',
      );
      expect(operationAt('GET', `/spaces/s1/revisions/r1/path/${pagePath}`)?.operationId).toBe(
        'getPageInRevisionByPath',
      );
    }
    expect(operationAt('GET', '/spaces/s1/content/path/')).toBeUndefined();
    expect(operationAt('POST', '/spaces/s1/transfer')).toBeUndefined();
    expect(replyProblem('POST', '/v1/spaces/s1/transfer', 200, { ...space, x: 1 })).toMatch(/as Space/);
    expect(replyProblem('GET', '/v1/unheard-of', 200, {})).toMatch(
      /GitBook's OpenAPI document has no such route/,
    );
    expect(replyProblem('GET', '/v1/spaces/s1?x=1', 404, { error: {} })).toBeUndefined();
    expect(replyProblem('GET', '/health', 200, { anything: true })).toBeUndefined();
    expect(replyProblem('HEAD', '/v1/spaces/s1', 200, undefined)).toBeUndefined();
    expect(replyProblem('HEAD', '/v1/unheard-of', 200, undefined)).toMatch(/no such route/);
  });
});
