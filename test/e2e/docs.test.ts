import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { restOfPathName } from '@app/platform/http/rest-of-path';
import { addGitBookFormats } from '@app/platform/openapi/strict-schema';
import gitbook from '@gitbook/api/spec/openapi.json';
import { RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { chromium, type Page } from 'playwright-core';
import { type TestApp, useTestApp } from '../support/app-harness';
import { tempDir } from '../support/temp-dir';

// Not in e2e-mongo: the API document and its page are made from the controllers, not from the views.

// biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON
type Json = Record<string, any>;

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

/** Just enough of OpenAPI 3.1 to catch a malformed document. */
const OPENAPI_SHAPE = {
  type: 'object',
  required: ['openapi', 'info', 'paths', 'components'],
  properties: {
    openapi: { type: 'string', pattern: '^3\\.1\\.\\d+$' },
    info: {
      type: 'object',
      required: ['title', 'version'],
      properties: { title: { type: 'string', minLength: 1 }, version: { type: 'string', minLength: 1 } },
    },
    security: { type: 'array', items: { type: 'object' } },
    components: {
      type: 'object',
      properties: {
        schemas: { type: 'object', additionalProperties: { type: ['object', 'boolean'] } },
        securitySchemes: {
          type: 'object',
          additionalProperties: { type: 'object', required: ['type'] },
        },
      },
    },
    paths: {
      type: 'object',
      propertyNames: { pattern: '^/' },
      additionalProperties: {
        type: 'object',
        propertyNames: { enum: [...METHODS, 'summary', 'description', 'parameters', 'servers'] },
        patternProperties: { [`^(${METHODS.join('|')})$`]: { $ref: '#/$defs/operation' } },
      },
    },
  },
  $defs: {
    operation: {
      type: 'object',
      required: ['operationId', 'responses'],
      properties: {
        operationId: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9]*$' },
        tags: { type: 'array', items: { type: 'string' } },
        parameters: { type: 'array', items: { $ref: '#/$defs/parameter' } },
        requestBody: { type: 'object', required: ['content'] },
        responses: {
          type: 'object',
          minProperties: 1,
          propertyNames: { pattern: '^[1-5]\\d\\d$' },
          additionalProperties: { type: 'object', required: ['description'] },
        },
        security: { type: 'array' },
      },
    },
    parameter: {
      type: 'object',
      required: ['name', 'in', 'schema'],
      properties: { in: { enum: ['path', 'query', 'header', 'cookie'] } },
      // A path parameter is always required.
      anyOf: [
        { properties: { in: { not: { const: 'path' } } } },
        { required: ['required'], properties: { required: { const: true } } },
      ],
    },
  },
};

function operations(doc: Json): { method: string; path: string; op: Json }[] {
  return Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({ method, path, op: item[method] })),
  );
}

function resolve(doc: Json, ref: string): unknown {
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, part) => (node as Json | undefined)?.[part], doc);
}

function refsIn(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(refsIn);
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === '$ref' && typeof value === 'string' ? [value] : refsIn(value),
  );
}

/** Every route of every controller in the app, from Nest's own decorator metadata. */
function controllerRoutes(app: TestApp): { method: string; path: string }[] {
  const routes: { method: string; path: string }[] = [];
  for (const module of app.built.app.get(ModulesContainer).values()) {
    for (const { metatype } of module.controllers.values()) {
      const type = metatype as Type;
      const base = Reflect.getMetadata(PATH_METADATA, type) as string;
      for (const name of Object.getOwnPropertyNames(type.prototype)) {
        if (name === 'constructor') continue;
        const handler = type.prototype[name];
        const path = typeof handler === 'function' ? Reflect.getMetadata(PATH_METADATA, handler) : undefined;
        if (path === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number].toLowerCase();
        const full = `/${base}/${path}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
        // The router's `*` (the rest of the path) is documented by the name the handler gives it.
        const rest = restOfPathName(type, name);
        const named = rest ? full.replace(/\/\*$/, `/{${rest}}`) : full;
        routes.push({ method, path: named.replace(/:(\w+)/g, '{$1}') });
      }
    }
  }
  return routes;
}

/** GitBook's operationId for a method and path (its paths are below /v1, parameter names aside). */
function gitbookOperationId(method: string, path: string): string | undefined {
  const shape = (p: string) => p.replace(/\{[^}]+\}/g, '{}');
  if (!path.startsWith('/v1/')) return undefined;
  const wanted = shape(path.slice('/v1'.length));
  const paths = (gitbook as Json).paths as Record<string, Json>;
  const match = Object.keys(paths).find((p) => shape(p) === wanted);
  return match ? paths[match][method]?.operationId : undefined;
}

describe('API reference', () => {
  const current = useTestApp();
  let doc: Json;

  beforeAll(async () => {
    const app = current();
    // The document is built on its first request: two at once get the same one.
    const replies = await Promise.all([1, 2].map(() => app.http('GET', '/v1/openapi.json', { token: null })));
    for (const reply of replies) {
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    }
    expect(replies[1].body).toEqual(replies[0].body);
    doc = replies[0].body as Json;
  });

  it('serves a well-formed OpenAPI 3.1 document whose references all resolve and whose schemas compile', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    addGitBookFormats(ajv);
    const validShape = ajv.compile(OPENAPI_SHAPE);
    expect(validShape(doc) ? [] : validShape.errors).toEqual([]);

    const unresolved = [...new Set(refsIn(doc))].filter((ref) => resolve(doc, ref) === undefined);
    expect(unresolved).toEqual([]);

    const ids = operations(doc).map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);

    for (const { path, op } of operations(doc)) {
      const declared = (op.parameters ?? []).filter((p: Json) => p.in === 'path').map((p: Json) => p.name);
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect({ path, params: declared.sort() }).toEqual({ path, params: templated.sort() });
    }

    ajv.addSchema({ $id: 'api.json', components: doc.components });
    for (const name of Object.keys(doc.components.schemas)) {
      expect(() => ajv.compile({ $ref: `api.json#/components/schemas/${name}` })).not.toThrow();
    }

    // A body class's example (@BodyExample) is in its schema, and is a body the schema accepts.
    const withExamples = Object.entries(doc.components.schemas as Record<string, Json>).filter(
      ([, schema]) => schema.examples,
    );
    expect(withExamples.map(([name]) => name)).toContain('MoveDto');
    for (const [name, schema] of withExamples) {
      const valid = ajv.compile({ $ref: `api.json#/components/schemas/${name}` });
      for (const example of schema.examples) {
        expect({ name, example, accepted: valid(example) }).toEqual({ name, example, accepted: true });
      }
    }
  });

  it('has every controller route, named as GitBook names it where GitBook has the route', () => {
    const app = current();
    const routes = controllerRoutes(app);
    expect(routes.length).toBeGreaterThan(15);
    for (const { method, path } of routes) {
      // Routes under the global prefix are documented with it; /health and the like are not prefixed.
      const documented = doc.paths[`/v1${path}`]?.[method] ? `/v1${path}` : path;
      const op = doc.paths[documented]?.[method];
      expect({ method, path, documented: Boolean(op) }).toEqual({ method, path, documented: true });
      const expected = gitbookOperationId(method, documented);
      if (expected)
        expect({ method, path: documented, id: op.operationId }).toEqual({
          method,
          path: documented,
          id: expected,
        });
    }
    expect(operations(doc)).toHaveLength(routes.length);

    const id = (method: string, path: string) => doc.paths[path][method].operationId;
    expect(id('get', '/v1/spaces/{spaceId}')).toBe('getSpaceById');
    expect(id('post', '/v1/orgs/{organizationId}/spaces')).toBe('createSpace');
    expect(id('get', '/v1/orgs/{organizationId}/collections')).toBe('listCollectionsInOrganizationById');
    expect(id('post', '/v1/spaces/{spaceId}/transfer')).toBe('transferSpace');
    // Page paths are the rest of the URL, under GitBook's paths and names.
    expect(id('get', '/v1/spaces/{spaceId}/content/path/{pagePath}')).toBe('getPageByPath');
    expect(id('get', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/path/{pagePath}')).toBe(
      'getPageInChangeRequestByPath',
    );
    expect(id('get', '/v1/spaces/{spaceId}/revisions/{revisionId}/path/{pagePath}')).toBe(
      'getPageInRevisionByPath',
    );
    const byPath = doc.paths['/v1/spaces/{spaceId}/content/path/{pagePath}'].get;
    expect(byPath.parameters.filter((p: Json) => p.in === 'path').map((p: Json) => p.name)).toEqual([
      'spaceId',
      'pagePath',
    ]);
    expect(byPath.parameters.map((p: Json) => p.name)).toEqual(
      expect.arrayContaining(['format', 'metadata']),
    );
  });

  it('describes tags, security, status codes, responses and query parameters', () => {
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ bearer: [] }]);
    for (const { op } of operations(doc)) expect(op.tags).toHaveLength(1);

    const spaces = doc.paths['/v1/spaces/{spaceId}'];
    expect(spaces.get.tags).toEqual(['Spaces']);
    expect(spaces.get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Space',
    });
    expect(Object.keys(spaces.get.responses)).toEqual(['200', '400', '401', '404']);
    expect(spaces.get.responses['404'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ErrorEnvelope',
    });
    expect(Object.keys(spaces.delete.responses)).toEqual(['204', '205', '400', '401', '403', '404', '409']);
    expect(Object.keys(doc.paths['/v1/collections/{collectionId}'].delete.responses)).toContain('205');
    expect(Object.keys(doc.paths['/v1/orgs/{organizationId}/spaces'].post.responses)).toContain('201');
    expect(resolve(doc, '#/components/schemas/ErrorEnvelope')).toMatchObject({
      required: ['error'],
      properties: { error: { required: ['code', 'message'] } },
    });
    expect(doc.paths['/health'].get.security).toEqual([]);
    expect(Object.keys(doc.paths['/health'].get.responses)).toEqual(['200']);

    const list = doc.paths['/v1/orgs'].get;
    expect(list.parameters).toEqual(
      expect.arrayContaining([
        { name: 'limit', in: 'query', required: false, schema: expect.objectContaining({ maximum: 1000 }) },
        { name: 'page', in: 'query', required: false, schema: expect.objectContaining({ type: 'string' }) },
      ]),
    );
    expect(list.responses['200'].content['application/json'].schema.allOf[0]).toEqual({
      $ref: '#/components/schemas/List',
    });
    // A list in a query, as GitBook's: the key once per value (OpenAPI's default form, exploded).
    const statuses = doc.paths['/v1/orgs/{organizationId}/change-requests'].get.parameters.find(
      (p: Json) => p.name === 'status',
    );
    expect(statuses.schema).toMatchObject({
      type: 'array',
      items: { enum: ['draft', 'open', 'archived', 'merged'] },
    });
  });

  it('takes the PATCH /v1/spaces/{spaceId} body schema from the DTO, agreeing with the validation pipe', async () => {
    const app = current();
    const body = doc.paths['/v1/spaces/{spaceId}'].patch.requestBody.content['application/json'].schema;
    const schema = resolve(doc, body.$ref) as Json;
    expect(Object.keys(schema.properties).sort()).toEqual([
      'defaultLevel',
      'editMode',
      'emoji',
      'icon',
      'language',
      'mergeRules',
      'title',
    ]);
    expect(schema.properties.title).toEqual({
      type: 'string',
      maxLength: 50,
      pattern: '^[^\\u0000-\\u0008\\u000A-\\u001F\\u202A-\\u202E\\u2066-\\u2069]*$',
    });
    expect(schema.additionalProperties).toBe(false);

    const ajv = new Ajv2020({ strict: false });
    addGitBookFormats(ajv);
    ajv.addSchema({ $id: 'api.json', components: doc.components });
    const valid = ajv.compile({ $ref: `api.json${body.$ref}` });
    const space = await app.http('POST', `/v1/orgs/${app.organizationId}/spaces`, {
      body: { title: 'Docs' },
    });
    const samples = [
      { title: 'Renamed', editMode: 'locked' },
      { emoji: null, defaultLevel: null },
      { title: 'x'.repeat(51) },
      { title: 'null\u0000byte' },
      { title: 'tab\tallowed' },
      { title: 'Invoice\u202efdp.exe' },
      { title: 'שלום \u200fmarked' },
      { emoji: '1f4d8' },
      { emoji: 'book' },
      { title: null },
      { editMode: 'frozen' },
      { language: 'pt-br' },
      { language: 'klingon' },
      { icon: 'https://example.com/icon.png' },
      { icon: null, emoji: null },
      { icon: 'not a url' },
      { unknown: true },
    ];
    for (const sample of samples) {
      const reply = await app.http('PATCH', `/v1/spaces/${(space.body as Json).id}`, { body: sample });
      expect({ sample, status: reply.status }).toEqual({ sample, status: valid(sample) ? 200 : 400 });
    }
  });

  it('renders the reference page in Chromium with every operation, fetching nothing from elsewhere', async () => {
    const app = current();
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `${CHROMIUM} is missing: install Debian's chromium package (apt-get install -y chromium)`,
      );
    }
    const html = await fetch(`${app.url}/docs`);
    expect(html.status).toBe(200);
    const slash = await fetch(`${app.url}/docs/`, { redirect: 'manual' });
    expect(slash.headers.get('location')).toBe('/docs');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      page.setDefaultTimeout(8_000);
      const elsewhere: string[] = [];
      const errors: string[] = [];
      await page.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith(`${app.url}/`)) return route.continue();
        elsewhere.push(url);
        return route.abort();
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${app.url}/docs`);
      await page.locator('.opblock-summary-operation-id').first().waitFor();

      // Past 150 tags and operations, swagger-ui renders only those near the viewport: the page is read
      // as a reader scrolls it.
      const seen = await scrollThrough(page, async () => ({
        ids: await page.locator('.opblock-summary-operation-id').allTextContents(),
        paths: (await page.locator('.opblock-summary-path').allTextContents()).map((p) =>
          p.replace(/\u200b/g, ''),
        ),
      }));
      const ids = [...new Set(seen.flatMap((s) => s.ids))];
      expect(ids.sort()).toEqual(
        operations(doc)
          .map(({ op }) => op.operationId)
          .sort(),
      );
      expect(seen.flatMap((s) => s.paths)).toEqual(
        expect.arrayContaining(['/v1/spaces/{spaceId}', '/v1/orgs/{organizationId}/collections']),
      );

      // Opening an operation shows its request body schema, rendered from the DTO's rules.
      const update = page.locator('#operations-Spaces-updateSpaceById');
      await scrollThrough(page, async () => (await update.count()) > 0);
      await update.locator('.opblock-summary').click();
      await update.locator('.opblock-section-request-body button[data-name="model"]').click();
      const model = update.locator('.opblock-section-request-body .model-box');
      await model.getByText('emoji').first().waitFor();
      const rendered = await model.textContent();
      for (const text of ['editMode', 'title', 'defaultLevel', 'emoji', '≤ 50 characters']) {
        expect(rendered).toContain(text);
      }

      const file = join(tempDir('docs-page-'), 'docs.png');
      await page.screenshot({ path: file, fullPage: true });
      expect(statSync(file).size).toBeGreaterThan(30_000);
      expect(errors).toEqual([]);
      expect(elsewhere).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 40_000);
});

/**
 * Scrolls the page from the top to the bottom a screen at a time, reading what `read` finds at each
 * stop; stops early once `read` answers `true`.
 */
async function scrollThrough<T>(page: Page, read: () => Promise<T>): Promise<T[]> {
  const found: T[] = [];
  for (let top = 0; ; top += 600) {
    await page.evaluate(`window.scrollTo(0, ${top})`);
    // The virtual list measures and renders the rows now in view on the next frames (a browser expression:
    // this file is compiled without the DOM's types).
    await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
    const value = await read();
    found.push(value);
    if (value === true) return found;
    if (top > Number(await page.evaluate('document.documentElement.scrollHeight'))) return found;
  }
}
