import { FEATURES } from '@app/composition/features';
import { restOfPathName } from '@app/platform/http/rest-of-path';
import { OPENAPI_PATH } from '@app/platform/openapi/api-reference';
import { OWN_SCHEMA, OWN_SHAPE } from '@app/platform/openapi/own-shape';
import { GitBookAPI } from '@gitbook/api';
import { RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { matchTemplate, operationAt, responseProblem, schemaProblem } from './openapi';

/**
 * Every 2xx answer a test receives on a /v1 route is checked here, strictly (see openapi.ts), against the
 * response schema GitBook's OpenAPI document gives the operation that method and path name for that
 * status. The test harness's requests go through it: `app.http`, `app.api()` (the GitBook client, by
 * its service binding), `send` in http-checks.ts, and the endpoint tour's client and http function.
 */

export interface ProjectRoute {
  method: string;
  /** The path below /v1, parameters in braces: `/spaces/{spaceId}/transfer`. */
  template: string;
  /** The component schema (components/schemas) a 2xx body is, or why no schema applies. */
  answers: { schema: string } | { unspecified: string };
  /**
   * Why this route's answer is the seeds' shape rather than that of GitBook's operation at the same method
   * and path (the seeds win): the entry is then checked in place of the operation.
   */
  replaces?: string;
  /** The handler that declares it (`SpacesController.transfer`), for messages. */
  declaredBy: string;
}

/**
 * Routes served outside Nest's router (no handler to declare them): the API document, which is this
 * project's own and not a GitBook resource; docs.test.ts checks its shape.
 */
const RAW_ROUTES: ProjectRoute[] = [
  {
    method: 'GET',
    template: OPENAPI_PATH.slice('/v1'.length),
    answers: { unspecified: "this project's own OpenAPI 3.1 document, not a GitBook resource" },
    declaredBy: 'serveApiReference (libs/platform/openapi/api-reference.ts)',
  },
];

/** `a/:b/*` joined and written as a template: `/a/{b}/{rest}`. */
function templateOf(controller: Type, handler: string, ...parts: string[]): string {
  const path = `/${parts.join('/')}`.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1');
  const rest = restOfPathName(controller, handler);
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\/\*$/, rest ? `/{${rest}}` : '/*');
}

const asPaths = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(String) : [typeof value === 'string' ? value : ''];

/**
 * The /v1 routes whose handlers declare their answer with `@OwnShape(shape, schema?)`
 * (libs/platform/openapi/own-shape.ts), read from the features' controllers: the component schema
 * each answers, checked as strictly as the document's operations (GitBook's, or one of the seeds'
 * shapes of openapi.ts), or, without one, the shape in words, unchecked. On a route GitBook's document
 * also has, the declaration replaces GitBook's operation.
 */
async function declaredRoutes(): Promise<ProjectRoute[]> {
  const modules = await Promise.all(FEATURES.map((feature) => feature.module()));
  const controllers = new Set(modules.flatMap((m) => m.forRole('standalone', FEATURES).controllers ?? []));
  const routes: ProjectRoute[] = [];
  for (const controller of controllers) {
    const names = Object.getOwnPropertyNames(controller.prototype).filter((n) => n !== 'constructor');
    for (const name of names) {
      const handler = controller.prototype[name] as object;
      const verb = Reflect.getMetadata(METHOD_METADATA, handler);
      const shape = Reflect.getMetadata(OWN_SHAPE, handler) as string | undefined;
      if (verb === undefined || shape === undefined) continue;
      const schema = Reflect.getMetadata(OWN_SCHEMA, handler) as string | undefined;
      const method = RequestMethod[verb as RequestMethod];
      for (const base of asPaths(Reflect.getMetadata(PATH_METADATA, controller))) {
        for (const path of asPaths(Reflect.getMetadata(PATH_METADATA, handler))) {
          const template = templateOf(controller, name, base, path);
          routes.push({
            method,
            template,
            answers: schema ? { schema } : { unspecified: shape },
            ...(operationAt(method, template) ? { replaces: shape } : {}),
            declaredBy: `${controller.name}.${name}`,
          });
        }
      }
    }
  }
  return routes;
}

let projectRoutes: ProjectRoute[] | undefined;
let loading: Promise<ProjectRoute[]> | undefined;

/**
 * The /v1 routes this project serves that GitBook's document lacks, or whose answers the seeds shape
 * differently: those whose handlers say so with `@OwnShape`, and RAW_ROUTES. Loads the features' modules
 * the first time; the checks below need it done (`checkingFetch` and the endpoint tour await it).
 */
export function loadProjectRoutes(): Promise<ProjectRoute[]> {
  loading ??= declaredRoutes().then((declared) => {
    projectRoutes = [...declared, ...RAW_ROUTES];
    return projectRoutes;
  });
  return loading;
}

function loadedProjectRoutes(): ProjectRoute[] {
  if (!projectRoutes)
    throw new Error('the project routes are not loaded yet: await loadProjectRoutes() first');
  return projectRoutes;
}

const PREFIX = '/v1';

/**
 * What answers `method path` (a path below /v1: `/spaces/{spaceId}` or `/spaces/abc`) are checked
 * against: GitBook's operation, the route's own declaration (`loadProjectRoutes`), or undefined for neither.
 */
export function routeSchema(
  method: string,
  path: string,
): { operationId: string } | ProjectRoute | undefined {
  const listed = matchTemplate(
    loadedProjectRoutes().filter((r) => r.method === method.toUpperCase()),
    path,
  );
  const op = operationAt(method, path);
  if (op && !listed?.replaces) return { operationId: op.operationId };
  return listed;
}

/**
 * Why the answer to `method path` (the path as sent, query allowed) is not what the API promises, or
 * undefined; throws when the operation has no response with that status. `body` is the parsed JSON,
 * undefined when the answer had none. Only 2xx answers on /v1 routes are checked: errors have their
 * own checks (http-checks.ts).
 */
export function replyProblem(
  method: string,
  path: string,
  status: number,
  body: unknown,
): string | undefined {
  const pathname = path.split('?')[0];
  if (status < 200 || status > 299 || !(pathname === PREFIX || pathname.startsWith(`${PREFIX}/`))) return;
  const below = pathname.slice(PREFIX.length) || '/';
  const where = `${method.toUpperCase()} ${pathname} (${status})`;
  // A HEAD answer is its GET's without the body: the route must be known, there is nothing to check.
  const head = method.toUpperCase() === 'HEAD';
  if (head && body !== undefined) return `${where}: a body in the answer to HEAD`;
  const route = routeSchema(head ? 'GET' : method, below);
  if (!route) {
    return `${where}: GitBook's OpenAPI document has no such route, and its handler does not say what it answers with @OwnShape(shape, schema?)`;
  }
  if (head) return;
  if ('operationId' in route) {
    const found = responseProblem(route.operationId, status, body);
    return found && `${where}: ${found}`;
  }
  if ('unspecified' in route.answers) return;
  if (body === undefined) return `${where}: a ${route.answers.schema} was expected, got no body`;
  const found = schemaProblem(route.answers.schema, body);
  return found && `${where}: ${found}`;
}

/** Throws when `replyProblem` finds one. */
export function expectValidReply(method: string, path: string, status: number, body: unknown): void {
  const found = replyProblem(method, path, status, body);
  if (found) throw new Error(found);
}

const CHECKING = new WeakSet<typeof fetch>();

/** `base` (fetch by default), with every 2xx answer on a /v1 route checked as above before it is returned. */
export function checkingFetch(base: typeof fetch = fetch): typeof fetch {
  if (CHECKING.has(base)) return base;
  const checked: typeof fetch = async (input, init) => {
    await loadProjectRoutes();
    const response = await base(input, init);
    const request = input instanceof Request ? input : undefined;
    const method = init?.method ?? request?.method ?? 'GET';
    const { pathname } = new URL(request ? request.url : input.toString());
    if (!response.ok || !(pathname === PREFIX || pathname.startsWith(`${PREFIX}/`))) return response;
    const text = await response.clone().text();
    let body: unknown;
    if (text) {
      const type = response.headers.get('content-type') ?? '';
      if (!/^application\/json\b/.test(type)) {
        throw new Error(
          `${method} ${pathname} (${response.status}): content-type ${type || 'none'}, not JSON`,
        );
      }
      body = JSON.parse(text);
    }
    expectValidReply(method, pathname, response.status, body);
    return response;
  };
  CHECKING.add(checked);
  return checked;
}

/** `api` itself when its answers are checked already, else a client like it whose answers are. */
export function checkedClient(api: GitBookAPI): GitBookAPI {
  const base = api.serviceBinding?.fetch;
  if (base && CHECKING.has(base)) return api;
  return new GitBookAPI({
    endpoint: api.endpoint,
    authToken: api.authToken,
    userAgent: api.userAgent,
    serviceBinding: { fetch: checkingFetch(base ?? fetch) },
  });
}
