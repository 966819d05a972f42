import { type INestApplication, Logger } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ID_PATTERN } from '../domain/ids';
import { REST_OF_PATH } from '../http/rest-of-path';
import { type GitBookOperation, GitBookSpec } from './gitbook';
import { localRefs } from './refs';
import { RouteCatalog, type RouteFacts } from './routes';
import {
  bodySchema,
  queryParameters,
  SCHEMA_REF,
  type Schema,
  validationSchemas,
} from './validation-schemas';

type Json = Record<string, unknown>;

interface Operation {
  operationId: string;
  summary?: string;
  parameters?: Json[];
  requestBody?: Json;
  responses: Record<string, Json>;
  security?: unknown[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

const SUCCESS: Record<string, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  205: 'Reset Content',
};

/** The envelope of every error (see `errorBody` in http/errors.ts). */
const ERROR_ENVELOPE: Schema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'integer' }, message: { type: 'string' } },
    },
  },
};

const ERRORS: Record<number, string> = {
  400: 'Invalid request; the message names the offending field',
  401: 'Missing, malformed or revoked bearer token',
  403: 'Your role in the organization does not allow this',
  404: 'Not found, or in an organization you are not a member of',
  409: 'Conflicts with the current state of the resource',
};

/**
 * The OpenAPI 3.1 document of the application's controllers. @nestjs/swagger finds the paths, path parameters
 * and body classes; class-validator rules give the body and query schemas; GitBook's document gives the
 * operationIds and response schemas of the routes it shares with us.
 */
export function buildApiDocument(app: INestApplication): OpenAPIObject {
  const gitbook = GitBookSpec.load();
  if (!gitbook) {
    new Logger('openapi').warn(
      '@gitbook/api is not installed: the API document has no GitBook operationIds or response schemas',
    );
  }
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('docs-hub API')
    .setDescription(
      'The GitBook API operations this server implements. Every error is `{"error": {"code", "message"}}`.',
    )
    .setVersion('1')
    .addSecurity('bearer', { type: 'http', scheme: 'bearer', description: 'An API token' })
    .addSecurityRequirements('bearer')
    .build();
  const document = SwaggerModule.createDocument(app, config, { operationIdFactory: RouteCatalog.key });
  const describer = new OperationDescriber(
    new RouteCatalog(app),
    gitbook,
    document.components as Record<string, Json>,
  );
  const paths: Record<string, Json> = {};
  for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
    for (const method of METHODS) {
      const operation = item[method] as Operation | undefined;
      if (!operation) continue;
      const documented = describer.describe(method, path, operation);
      paths[documented] = { ...paths[documented], [method]: operation };
    }
  }
  document.paths = paths;
  return document;
}

class OperationDescriber {
  private readonly validation = validationSchemas();
  private readonly schemas: Record<string, Json>;
  private readonly operationIds = new Set<string>();
  private readonly bodyClasses = new Set<string>();

  constructor(
    private readonly routes: RouteCatalog,
    private readonly gitbook: GitBookSpec | undefined,
    private readonly components: Record<string, Json>,
  ) {
    components.schemas ??= {};
    this.schemas = components.schemas as Record<string, Json>;
    this.schemas.ErrorEnvelope = ERROR_ENVELOPE;
  }

  /** Completes the operation; returns its path, the rest-of-path parameter named as the API names it. */
  describe(method: string, scanned: string, operation: Operation): string {
    const facts = this.routes.facts(operation.operationId);
    const path = facts.restOfPath ? withRestOfPath(scanned, facts.restOfPath) : scanned;
    const shared = this.gitbook?.operation(method, path);
    operation.operationId = this.uniqueId(shared?.operationId ?? ownOperationId(facts));
    if (shared?.summary) operation.summary = shared.summary;
    for (const parameter of operation.parameters ?? []) {
      if (parameter.in === 'path' && facts.idParams.includes(parameter.name as string)) {
        parameter.schema = { type: 'string', pattern: ID_PATTERN.source };
      }
      if (parameter.in === 'path' && parameter.name === REST_OF_PATH && facts.restOfPath) {
        parameter.name = facts.restOfPath;
        parameter.description = 'The rest of the URL: it may hold `/` (`guides/intro`), unencoded or encoded';
      }
    }
    if (facts.query) {
      operation.parameters = [
        ...(operation.parameters ?? []),
        ...queryParameters(this.validationOf(facts.query)),
      ];
    }
    if (facts.body) {
      this.addBodySchema(facts.body.name);
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: { $ref: `${SCHEMA_REF}${facts.body.name}` } } },
      };
    }
    operation.responses = {
      ...this.successResponses(operation, facts, shared),
      ...errorResponses(method, operation, facts),
    };
    if (facts.isPublic) operation.security = [];
    return path;
  }

  /** Statuses from @HttpCode (or Nest's defaults); a handler that sends its own reply has GitBook's instead. */
  private successResponses(operation: Operation, facts: RouteFacts, shared: GitBookOperation | undefined) {
    const source = facts.sendsReply && shared ? shared.responses : operation.responses;
    const statuses = Object.keys(source).filter((status) => status.startsWith('2'));
    return Object.fromEntries(
      statuses.map((status) => {
        const theirs = facts.ownShape ? undefined : shared?.responses[status];
        // Their headers (Location on creates) are not sent here.
        const response: Json = theirs
          ? { description: theirs.description ?? SUCCESS[status], content: theirs.content }
          : { description: facts.ownShape ?? SUCCESS[status] ?? 'Success' };
        if (response.content === undefined) delete response.content;
        this.gitbook?.copyReferenced(response, this.components);
        return [status, response];
      }),
    );
  }

  private validationOf(type: { name: string }): Schema {
    const schema = this.validation[type.name];
    if (!schema) throw new Error(`${type.name} has no class-validator rules to describe it`);
    return schema;
  }

  /** Adds a body class and every class it nests to the components. */
  private addBodySchema(name: string): void {
    if (this.bodyClasses.has(name)) return;
    // The scanner leaves an empty placeholder for each body class; a schema with properties is a name clash.
    const placeholder = this.schemas[name]?.properties as Json | undefined;
    if (placeholder && Object.keys(placeholder).length > 0) throw new Error(`Two schemas are named ${name}`);
    this.bodyClasses.add(name);
    const schema = bodySchema(this.validationOf({ name }));
    this.schemas[name] = schema;
    for (const ref of localRefs(schema)) this.addBodySchema(ref.slice(SCHEMA_REF.length));
  }

  private uniqueId(id: string): string {
    if (this.operationIds.has(id)) throw new Error(`Two operations have the operationId ${id}`);
    this.operationIds.add(id);
    return id;
  }
}

/**
 * The scanner names a route path's trailing `*` after its own wildcard (`/path/{path}`); the API names it
 * (`/path/{pagePath}`), as GitBook's document does.
 */
function withRestOfPath(path: string, name: string): string {
  if (!/\/\{[^}]+\}$/.test(path)) throw new Error(`${path} does not end with the rest of the path`);
  return path.replace(/\{[^}]+\}$/, `{${name}}`);
}

/**
 * For routes GitBook does not have: the method name, followed by the resource in the singular when the
 * controller is named after a plural resource and the method does not name it (`transferSpace`, `ready`).
 */
function ownOperationId(facts: RouteFacts): string {
  const resource = facts.controller.replace(/Controller$/, '');
  if (!resource.endsWith('s')) return facts.method;
  const singular = resource.slice(0, -1);
  return facts.method.toLowerCase().includes(singular.toLowerCase())
    ? facts.method
    : `${facts.method}${singular}`;
}

/**
 * The errors an operation can answer: 401 without a valid token, 400 for a malformed id, body or query,
 * 404 for a resource named in the path, 403 (role) and 409 (state, or a write that lost a race) for writes.
 */
function errorResponses(method: string, operation: Operation, facts: RouteFacts): Record<string, Json> {
  if (facts.isPublic) return {};
  const hasPathParameter = (operation.parameters ?? []).some((parameter) => parameter.in === 'path');
  const writes = method !== 'get';
  const codes = [
    ...(hasPathParameter || facts.body || facts.query ? [400] : []),
    401,
    ...(writes ? [403] : []),
    ...(hasPathParameter ? [404] : []),
    ...(writes ? [409] : []),
  ];
  return Object.fromEntries(
    codes.map((code) => [
      String(code),
      {
        description: ERRORS[code],
        content: { 'application/json': { schema: { $ref: `${SCHEMA_REF}ErrorEnvelope` } } },
      },
    ]),
  );
}
