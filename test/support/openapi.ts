import { addGitBookFormats, isObject, mapValues, strictSchema } from '@app/platform/openapi/strict-schema';
import spec from '@gitbook/api/spec/openapi.json';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * Response bodies checked against GitBook's OpenAPI document (`@gitbook/api`'s spec/openapi.json), in a
 * strict mode: a body may hold no property its schema does not list. GitBook's schemas rarely say
 * `additionalProperties: false` and GitBook clients tolerate extra fields, but this project emits none
 * it does not mean to, so an internal field leaking into an answer fails the test that received it.
 *
 * How: every schema in a value position (a response body, a property's value, an array's items, a
 * map's values) gets `unevaluatedProperties: false`; the members of `allOf`/`anyOf`/`oneOf` and the
 * component definitions `$ref` points at do not, because `unevaluatedProperties` sees what the
 * subschemas that applied (through `$ref` and the combinators) evaluated, whereas a member marked
 * strict would refuse its siblings' properties. Maps (`additionalProperties: true` or a schema) stay
 * maps: their entries are evaluated. A property that two schemas of one object declare (two `allOf`
 * members, say) is checked strictly against each: right where each describes the whole value (as in
 * GitBook's document fragments), a loud refusal where one only adds properties to the other (none of
 * the operations this project serves has such a property), which then needs the two merged here.
 */

type Json = Record<string, unknown>;

const SPEC = spec as unknown as Json;
const COMPONENTS = SPEC.components as { schemas: Record<string, Json>; responses?: Record<string, Json> };
const SPEC_ID = 'gitbook-openapi-strict.json';

/**
 * Properties this project answers that GitBook's schema for them does not list (or lists more narrowly)
 * but the specification (../shared/seeds, which wins over GitBook's document) gives the resource: schema
 * name, property, the property's schema (still checked, strictly) and the reason. Keep it to fields the
 * seeds name.
 */
export const EXTRA_PROPERTIES: Record<string, Record<string, { schema: Json; reason: string }>> = {
  Site: {
    agentsContext: {
      schema: { type: 'string', enum: ['excluded', 'included'] },
      reason:
        'the seeds give a site `agentsContext` (required): `excluded` or `included`, whether agents may read it',
    },
  },
  OrganizationSAMLProvider: {
    ssoURL: {
      schema: { type: 'string', maxLength: 2048, anyOf: [{ format: 'uri' }, { const: '' }] },
      reason:
        'the seeds create a provider from its label alone (pending): its sign-in URL is empty until set, where GitBook requires a URI',
    },
  },
};

/**
 * Properties the seeds give an object that GitBook's schema describes inline, inside a component (so
 * `EXTRA_PROPERTIES`, which names a component, cannot reach it): the path to that object's schema within
 * the component, the properties (still checked, strictly) and the reason. Keep it to fields the seeds name.
 */
export const NESTED_EXTRA_PROPERTIES: {
  at: (string | number)[];
  properties: Record<string, Json>;
  reason: string;
}[] = [
  {
    at: ['Comment', 'allOf', 0, 'properties', 'target', 'properties', 'page'],
    properties: {
      title: { type: 'string' },
      emoji: { type: 'string' },
      icon: { type: 'string' },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
      path: { type: 'string' },
      outdated: { type: 'boolean' },
    },
    reason:
      "the seeds' Comment: target.page {id, title, emoji, icon, createdAt, updatedAt, path, outdated: boolean}",
  },
  {
    at: ['Comment', 'allOf', 0, 'properties', 'target', 'properties', 'node'],
    properties: { preview: { type: 'string' } },
    reason: "the seeds' Comment: target.node {id, preview}",
  },
];

/**
 * Resources the specification shapes differently from GitBook's document, as schemas in its terms (checked
 * as strictly as GitBook's own): a route that answers one names it in its handler's
 * `@OwnShape(shape, schema)`. Keep it to shapes the seeds give.
 */
export const SEED_SCHEMAS: Record<string, { schema: Json; reason: string }> = {
  // The seeds' ping answer (organization-area endpoints), where GitBook's names it `gitbookVisitorClaims`.
  PingAnswer: {
    reason: 'the seeds: 200 {serviceVisitorClaims: string}, a JWT to attach to the user',
    schema: {
      type: 'object',
      required: ['serviceVisitorClaims'],
      properties: { serviceVisitorClaims: { type: 'string', pattern: '^[\\w-]+\\.[\\w-]+\\.[\\w-]+$' } },
    },
  },
  // The seeds' "Translation settings" (overview, resources), where GitBook's document has `Translation`.
  TranslationSettings: {
    reason:
      'the seeds: object translation-settings, id, title (1 to 100), languages, dates, permissions, urls',
    schema: {
      type: 'object',
      required: ['object', 'id', 'title', 'languages', 'createdAt', 'updatedAt', 'permissions', 'urls'],
      properties: {
        object: { type: 'string', enum: ['translation-settings'] },
        id: { type: 'string' },
        title: { type: 'string', minLength: 1, maxLength: 100 },
        languages: { type: 'array', items: { $ref: '#/components/schemas/TranslationLanguage' } },
        createdAt: { type: 'string', format: 'date-time' },
        updatedAt: { type: 'string', format: 'date-time' },
        permissions: {
          type: 'object',
          required: ['view', 'edit'],
          properties: { view: { type: 'boolean' }, edit: { type: 'boolean' } },
        },
        urls: {
          type: 'object',
          required: ['location'],
          properties: { location: { type: 'string', format: 'uri' } },
        },
      },
    },
  },
  TranslationSettingsList: {
    reason: "a list of TranslationSettings, in GitBook's list envelope (as its listTranslations)",
    schema: {
      allOf: [
        { $ref: '#/components/schemas/List' },
        {
          type: 'object',
          required: ['items'],
          properties: {
            items: { type: 'array', items: { $ref: '#/components/schemas/TranslationSettings' } },
          },
        },
      ],
    },
  },
};

/** GitBook's component schemas with the seeds' own beside them. */
const ALL_SCHEMAS: Record<string, Json> = { ...COMPONENTS.schemas };
for (const [name, { schema }] of Object.entries(SEED_SCHEMAS)) {
  if (ALL_SCHEMAS[name]) throw new Error(`SEED_SCHEMAS names ${name}, which GitBook's document has`);
  ALL_SCHEMAS[name] = schema;
}

function strictComponents(): Json {
  const schemas = mapValues(ALL_SCHEMAS, (s) => strictSchema(s, false)) as Record<string, Json>;
  for (const [name, extra] of Object.entries(EXTRA_PROPERTIES)) {
    const schema = schemas[name];
    if (!schema) throw new Error(`EXTRA_PROPERTIES names ${name}, which the OpenAPI document lacks`);
    schema.properties = {
      ...(schema.properties as Json | undefined),
      ...mapValues(extra, (e) => strictSchema((e as { schema: Json }).schema, true)),
    };
  }
  for (const { at, properties } of NESTED_EXTRA_PROPERTIES) {
    const node = at.reduce<unknown>(
      (inside, key) => (inside as Record<string | number, unknown>)?.[key],
      schemas,
    );
    if (!isObject(node) || !isObject(node.properties))
      throw new Error(`NESTED_EXTRA_PROPERTIES: no object schema at ${at.join('/')}`);
    node.properties = { ...node.properties, ...mapValues(properties, (p) => strictSchema(p, true)) };
  }
  repairUnsatisfiable(schemas);
  return { ...COMPONENTS, schemas };
}

/**
 * Two places where GitBook's document refuses every answer, whatever it holds: a document page
 * without a body must match `Document`'s "Empty" option, which forbids every property (so the page's
 * own fields too); and a `page_edited` change's attributes match at least two of three open schemas
 * that share `title` and `emoji`, so never exactly one. Here Empty means "neither markdown nor
 * document", and the attributes match any of the three; everything else stays strict.
 */
function repairUnsatisfiable(schemas: Record<string, Json>): void {
  (schemas.Document.oneOf as Json[])[2] = {
    not: { anyOf: [{ required: ['markdown'] }, { required: ['document'] }] },
  };
  const attributes = (schemas.RevisionSemanticChangePageEdited.properties as Json).attributes as Json;
  attributes.anyOf = attributes.oneOf;
  delete attributes.oneOf;
}

/** What `ref` ("#/components/schemas/Space") points at in the document. */
function resolve(ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`unsupported reference ${ref}`);
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>(
      (at, key) => (isObject(at) ? at[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined),
      SPEC,
    );
}

function deref(node: unknown): Json | undefined {
  let at = node;
  for (let hops = 0; isObject(at) && typeof at.$ref === 'string' && hops < 32; hops++) at = resolve(at.$ref);
  return isObject(at) ? at : undefined;
}

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
addGitBookFormats(ajv);
ajv.addSchema({ $id: SPEC_ID, components: strictComponents() } as Json);

/** Points the document's internal references at the registered (strict) copy of its components. */
function rebase(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rebase);
  if (!isObject(node)) return node;
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `${SPEC_ID}${v}` : rebase(v),
    ]),
  );
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface Operation {
  method: string;
  /** GitBook's path template, below /v1: `/spaces/{spaceId}`. */
  template: string;
  operationId: string;
  responses: Json;
}

const OPERATIONS: Operation[] = Object.entries(SPEC.paths as Record<string, Json>).flatMap(
  ([template, item]) =>
    HTTP_METHODS.filter((m) => isObject(item[m])).map((method) => {
      const op = item[method] as Json;
      return { method, template, operationId: op.operationId as string, responses: op.responses as Json };
    }),
);

function segments(path: string): string[] {
  return path.split('/').slice(1);
}

const isParameter = (segment: string) => /^\{[^}]+\}$/.test(segment);

/**
 * The template among `templates` that `path` (no query) matches, literal segments preferred over
 * parameters from left to right: `/orgs/o1/spaces` is `/orgs/{organizationId}/spaces`, not a
 * `/orgs/{organizationId}/{other}`.
 */
export function matchTemplate<T extends { template: string }>(candidates: T[], path: string): T | undefined {
  const wanted = segments(path);
  const matches = candidates.filter(({ template }) => {
    const parts = segments(template);
    // A page path is the rest of the URL: GitBook's clients send `guides/intro` unencoded.
    const rest = parts.at(-1) === '{pagePath}' && wanted.length > parts.length;
    return (
      (parts.length === wanted.length || rest) &&
      parts.every((part, i) => (isParameter(part) ? wanted[i] !== '' : part === wanted[i]))
    );
  });
  const rank = (template: string) =>
    segments(template)
      .map((s) => (isParameter(s) ? '1' : '0'))
      .join('');
  return matches.sort((a, b) => rank(a.template).localeCompare(rank(b.template)))[0];
}

/** GitBook's operation for a method and a path below /v1 (`/spaces/abc`), if the document has it. */
export function operationAt(method: string, path: string): Operation | undefined {
  const lower = method.toLowerCase();
  return matchTemplate(
    OPERATIONS.filter((op) => op.method === lower),
    path,
  );
}

function operationById(operationId: string): Operation {
  const op = OPERATIONS.find((o) => o.operationId === operationId);
  if (!op) throw new Error(`no operation ${operationId} in the OpenAPI document`);
  return op;
}

type Validate = ReturnType<typeof ajv.compile>;
const cache = new Map<string, Validate>();

function validator(key: string, schema: () => unknown): Validate {
  let validate = cache.get(key);
  if (!validate) {
    validate = ajv.compile(rebase(strictSchema(schema(), true)) as Json);
    cache.set(key, validate);
  }
  return validate;
}

/**
 * The JSON schema of an operation's `status` response; null when that response has no body; throws
 * when the operation has no such response (an answer the document does not allow).
 */
function responseSchema(op: Operation, status: number): Json | null {
  const declaredResponse = op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`];
  const response = deref(declaredResponse);
  if (!response) {
    throw new Error(
      `${op.operationId} has no ${status} response (it has ${Object.keys(op.responses).join(', ')})`,
    );
  }
  const content = response.content as Json | undefined;
  if (!content) return null;
  const json = content['application/json'] as Json | undefined;
  if (!json) throw new Error(`${op.operationId} ${status} is not JSON (${Object.keys(content).join(', ')})`);
  return json.schema as Json;
}

function problem(validate: Validate, what: string, body: unknown): string | undefined {
  if (validate(body)) return undefined;
  const errors = (validate.errors ?? []).map(({ instancePath, message, params }) => {
    const extra = (params as { unevaluatedProperty?: string }).unevaluatedProperty;
    return `${instancePath || '(body)'} ${message}${extra === undefined ? '' : `: ${JSON.stringify(extra)}`}`;
  });
  return `${what} does not match the schema (strict: no property it does not list):\n  ${errors.join('\n  ')}`;
}

/**
 * Why `body` (undefined: no body) is not what `operationId` answers with `status`, or undefined.
 * Throws when the operation has no `status` response.
 */
export function responseProblem(operationId: string, status: number, body: unknown): string | undefined {
  const op = operationById(operationId);
  const schema = responseSchema(op, status);
  if (schema === null) {
    return body === undefined ? undefined : `${operationId} ${status} has no body in the document, got one`;
  }
  if (body === undefined) return `${operationId} ${status} promises a body, got none`;
  return problem(
    validator(`${operationId}:${status}`, () => schema),
    `${operationId} ${status} body`,
    body,
  );
}

/** Why `body` is not a `component` (a schema in components/schemas), or undefined. */
export function schemaProblem(component: string, body: unknown): string | undefined {
  if (!ALL_SCHEMAS[component])
    throw new Error(`no schema ${component} in the OpenAPI document or SEED_SCHEMAS`);
  return problem(
    validator(`component:${component}`, () => ({ $ref: `#/components/schemas/${component}` })),
    `body as ${component}`,
    body,
  );
}
