import { randomBytes } from 'node:crypto';
import { Public } from '@app/platform/auth/auth.guard';
import { OPEN_TO_NON_MEMBERS, REQUIRED_ROLE } from '@app/platform/auth/requires-role';
import { isRole, type Role } from '@app/platform/domain/roles';
import { REST_OF_PATH, restOfPathName } from '@app/platform/http/rest-of-path';
import { OPENAPI_PATH } from '@app/platform/openapi/api-reference';
import { type INestApplication, RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { DiscoveryService, ModulesContainer } from '@nestjs/core';
import type { FastifyInstance, HTTPMethods } from 'fastify';

/** The API's version prefix; every authenticated route lives under it. */
export const API_PREFIX = '/v1';

/**
 * Routes Fastify serves outside Nest's router, which the app declares as public (the API document).
 * Anything else under /v1 that Nest does not know about would bypass the AuthGuard.
 */
const RAW_PUBLIC_ROUTES = new Set([`GET ${OPENAPI_PATH}`]);

const PUBLIC_KEY = Public().KEY;

export interface PathParam {
  name: string;
  /** Class names of the pipes bound to the parameter with @Param(name, ...pipes). */
  pipes: string[];
  /** The rest of the URL after the path's trailing `*` (`RestOfPath`): it may hold `/`. */
  rest?: true;
}

export interface Route {
  /** `METHOD /path`, the path as the router knows it (`/v1/spaces/:spaceId`, `/v1/…/path/*`). */
  key: string;
  method: string;
  path: string;
  controller: string;
  /** The controller class, for its handler's metadata. */
  controllerType: Type;
  handler: string;
  isPublic: boolean;
  /** The raw `required-role` metadata, validated by the authorization suite. */
  requiredRole: unknown;
  /** `@OpenToNonMembers`: a signed-in non-member reaches the handler (joining with an invite's id). */
  openToNonMembers: boolean;
  pathParams: PathParam[];
  query?: Type;
  body?: Type;
  /** Bindings a bad-input suite cannot reason about (a body without a DTO class, an unbound path param…). */
  problems: string[];
}

export interface RouteTable {
  /** Every Nest route of the running app, public ones included. */
  all: Route[];
  /** The authenticated /v1 routes: what the suites must cover. */
  api: Route[];
  /** `METHOD /path` of every route in Fastify's router (HEAD routes Fastify adds for GET left out). */
  router: string[];
}

interface RouteArg {
  index: number;
  data?: unknown;
  pipes?: unknown[];
}

const PRIMITIVES: unknown[] = [Object, String, Number, Boolean, Array];

function isDtoClass(value: unknown): value is Type {
  return typeof value === 'function' && !PRIMITIVES.includes(value);
}

function paths(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  return [typeof value === 'string' ? value : '/'];
}

function join(...parts: string[]): string {
  const joined = `/${parts.join('/')}`.replace(/\/{2,}/g, '/');
  return joined.length > 1 ? joined.replace(/\/$/, '') : joined;
}

function methodName(value: unknown): string {
  const name = RequestMethod[value as RequestMethod];
  if (!name) throw new Error(`Unknown request method metadata ${String(value)}`);
  return name;
}

/** Where the route is mounted: with the global prefix unless the app excludes it; asked of the router itself. */
function mountedPath(fastify: FastifyInstance, method: string, path: string): string | undefined {
  for (const candidate of [join(API_PREFIX, path), path]) {
    if (fastify.hasRoute({ method: method as HTTPMethods, url: candidate })) return candidate;
  }
  return undefined;
}

function describeRoute(
  fastify: FastifyInstance,
  controller: Type,
  handlerName: string,
  basePath: string,
): Route[] {
  const handler = controller.prototype[handlerName] as object;
  const httpMethod = Reflect.getMetadata(METHOD_METADATA, handler);
  const method = methodName(httpMethod);
  const args: Record<string, RouteArg> =
    Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handlerName) ?? {};
  const paramTypes: unknown[] =
    Reflect.getMetadata('design:paramtypes', controller.prototype, handlerName) ?? [];
  const isPublic = Boolean(
    Reflect.getMetadata(PUBLIC_KEY, handler) ?? Reflect.getMetadata(PUBLIC_KEY, controller),
  );
  const requiredRole =
    Reflect.getMetadata(REQUIRED_ROLE, handler) ?? Reflect.getMetadata(REQUIRED_ROLE, controller);

  const bound = new Map<string, string[]>();
  let query: Type | undefined;
  let body: Type | undefined;
  const problems: string[] = [];
  for (const [slot, arg] of Object.entries(args)) {
    // Built-in parameter decorators are keyed `<RouteParamtypes>:<index>`; custom ones carry a longer prefix.
    if (!/^\d+:\d+$/.test(slot)) continue;
    const kind = Number(slot.split(':')[0]);
    const declared = paramTypes[arg.index];
    if (kind === RouteParamtypes.PARAM) {
      if (typeof arg.data !== 'string') problems.push('reads the whole params object with @Param()');
      else
        bound.set(
          arg.data,
          (arg.pipes ?? []).map((p) => (p as object).constructor.name),
        );
    } else if (kind === RouteParamtypes.QUERY) {
      if (arg.data !== undefined) problems.push(`reads query key ${String(arg.data)} without a DTO class`);
      else if (isDtoClass(declared)) query = declared;
      else problems.push('reads the query without a DTO class');
    } else if (kind === RouteParamtypes.BODY) {
      if (arg.data !== undefined) problems.push(`reads body field ${String(arg.data)} without a DTO class`);
      else if (isDtoClass(declared)) body = declared;
      else problems.push('reads the body without a DTO class');
    }
  }

  return paths(Reflect.getMetadata(PATH_METADATA, handler)).map((handlerPath) => {
    const declaredPath = join(basePath, handlerPath);
    const path = mountedPath(fastify, method, declaredPath) ?? declaredPath;
    const tokens = [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
    const routeProblems = [...problems];
    if (path === declaredPath && !fastify.hasRoute({ method: method as HTTPMethods, url: path })) {
      routeProblems.push('is not in the Fastify router');
    }
    const pathParams: PathParam[] = tokens.map((name) => ({ name, pipes: bound.get(name) ?? [] }));
    for (const name of tokens) {
      if (!bound.has(name)) routeProblems.push(`does not bind path parameter ${name} with @Param`);
      else if (bound.get(name)?.length === 0)
        routeProblems.push(`validates path parameter ${name} with no pipe`);
    }
    // The router's wildcard: its value is `params['*']`, its name the one `RestOfPath` gives it.
    const rest = restOfPathName(controller, handlerName);
    if (rest && path.endsWith(`/${REST_OF_PATH}`)) {
      pathParams.push({ name: rest, pipes: bound.get(REST_OF_PATH) ?? [], rest: true });
      if (bound.get(REST_OF_PATH)?.length === 0)
        routeProblems.push(`validates the rest of the path (${rest}) with no pipe`);
    } else if (path.includes(REST_OF_PATH) || bound.has(REST_OF_PATH)) {
      routeProblems.push('needs a path ending in /* read with RestOfPath(name, ...pipes) for a wildcard');
    }
    return {
      key: `${method} ${path}`,
      method,
      path,
      controller: controller.name,
      controllerType: controller,
      handler: handlerName,
      isPublic,
      requiredRole,
      openToNonMembers: Reflect.getMetadata(OPEN_TO_NON_MEMBERS, handler) === true,
      pathParams,
      query,
      body,
      problems: routeProblems,
    };
  });
}

/**
 * The routes of Fastify's router, from `printRoutes()`: a tree whose lines are
 * `<indent><├── or └──><segment> (METHODS)`, each segment appended to its parent's path. Not
 * `commonPrefix: false`: that form prints a wildcard node as `*` alone, without the path above it.
 */
export function routerRoutes(fastify: FastifyInstance): string[] {
  const printed = fastify.printRoutes();
  const stack: { depth: number; path: string }[] = [];
  const routes: string[] = [];
  for (const line of printed.split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/u.exec(line);
    if (!match) continue;
    const depth = match[1].length / 4;
    while (stack.length > 0 && stack[stack.length - 1].depth >= depth) stack.pop();
    const path = (stack.at(-1)?.path ?? '') + match[2];
    stack.push({ depth, path });
    const methods = match[3]?.split(', ') ?? [];
    for (const method of methods) {
      // Fastify answers HEAD for every GET route by itself.
      if (method === 'HEAD' && methods.includes('GET')) continue;
      routes.push(`${method} ${path.replace(/^\/+/, '/')}`);
    }
  }
  return routes;
}

/** Reads the routes from the running app's controllers, and checks them against Fastify's router. */
export function routeTable(app: INestApplication): RouteTable {
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  const discovery = new DiscoveryService(app.get(ModulesContainer));
  const all: Route[] = [];
  const seen = new Set<Type>();
  for (const wrapper of discovery.getControllers()) {
    const controller = wrapper.metatype as Type | null;
    if (!controller || seen.has(controller)) continue;
    seen.add(controller);
    for (const base of paths(Reflect.getMetadata(PATH_METADATA, controller))) {
      const names = Object.getOwnPropertyNames(controller.prototype).filter(
        (name) =>
          name !== 'constructor' &&
          Reflect.getMetadata(METHOD_METADATA, controller.prototype[name] as object) !== undefined,
      );
      for (const name of names) all.push(...describeRoute(fastify, controller, name, base));
    }
  }
  all.sort((a, b) => a.key.localeCompare(b.key));
  const api = all.filter((route) => !route.isPublic);
  return { all, api, router: routerRoutes(fastify) };
}

/**
 * The path ids an outsider (a member of another organization) presents: the route's own, except on a route
 * open to non-members, where the ids beside the organization are a link's, a secret the outsider does not
 * hold (anyone holding it joins): ids of nothing, which must answer as nothing there does.
 */
export function outsiderIds(route: Route, ids: Record<string, string>): Record<string, string> {
  if (!route.openToNonMembers) return ids;
  const unknown = { ...ids };
  for (const { name } of route.pathParams) {
    if (name !== 'organizationId') unknown[name] = randomBytes(24).toString('base64url');
  }
  return unknown;
}

/** The route's path as the OpenAPI documents name it: `/v1/spaces/{spaceId}/content/path/{pagePath}`. */
export function templateOf(route: Route): string {
  const rest = route.pathParams.find((p) => p.rest);
  const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
  return rest ? path.replace(/\*$/, `{${rest.name}}`) : path;
}

/** Everything wrong with the table as a whole: unmounted routes, router routes Nest does not know, public /v1 routes. */
export function tableProblems(table: RouteTable): string[] {
  const problems: string[] = [];
  const nest = new Set(table.all.map((route) => route.key));
  for (const key of table.router) {
    if (nest.has(key)) continue;
    const path = key.split(' ')[1];
    if (path.startsWith(`${API_PREFIX}/`) && !RAW_PUBLIC_ROUTES.has(key)) {
      problems.push(`${key} is served by Fastify outside Nest's router, so the AuthGuard does not cover it`);
    }
  }
  const router = new Set(table.router);
  for (const route of table.all) {
    if (!router.has(route.key))
      problems.push(`${route.key} (${route.controller}.${route.handler}) is not mounted`);
  }
  for (const route of table.api) {
    if (!route.path.startsWith(`${API_PREFIX}/`))
      problems.push(`${route.key} needs a token but is outside ${API_PREFIX}`);
  }
  return problems;
}

/** The declared least role of a route, or why it cannot be used. */
export function declaredRole(route: Route): { role: Role } | { problem: string } {
  if (route.requiredRole === undefined) {
    return { problem: `${route.key} (${route.controller}.${route.handler}) declares no @RequiresRole` };
  }
  if (!isRole(route.requiredRole)) {
    return { problem: `${route.key} declares an unknown role ${JSON.stringify(route.requiredRole)}` };
  }
  return { role: route.requiredRole };
}
