import { collectionPermissions } from '@app/collections/domain/collection.permissions';
import { ROUTE_SCOPE_LIST } from '@app/composition/features';
import { organizationPermissions } from '@app/organizations/domain/organization.permissions';
import { OPEN_TO_GUESTS } from '@app/platform/auth/requires-role';
import { atLeast, ROLES, type Role } from '@app/platform/domain/roles';
import { spacePermissions } from '@app/spaces/domain/space.permissions';
import type { INestApplication, Type } from '@nestjs/common';
import { DiscoveryService, ModulesContainer } from '@nestjs/core';
import { type ApiTarget, sendTo, TARGETS } from '../support/api-target';
import { addUser } from '../support/app-harness';
import { dtoModel } from '../support/dto-model';
import { answerProblem, envelopeProblem, type RawReply } from '../support/http-checks';
import {
  createWorld,
  fillPath,
  grantOn,
  guestOf,
  memberOf,
  outsider,
  pathIds,
  validBody,
  type World,
} from '../support/route-fixtures';
import { declaredRole, outsiderIds, type Route, type RouteTable, routeTable } from '../support/route-table';

/**
 * Who calls: a member by organization role, a guest (a member without a role) with no grant, a guest
 * granted a role on the world's space and collection, and a member of another organization only.
 */
type Caller =
  | { kind: 'member'; role: Role }
  | { kind: 'guest' }
  | { kind: 'granted'; role: Role }
  | { kind: 'outsider' };

const CALLERS: Caller[] = [
  ...ROLES.map((role): Caller => ({ kind: 'member', role })),
  { kind: 'guest' },
  ...ROLES.map((role): Caller => ({ kind: 'granted', role })),
  { kind: 'outsider' },
];

function labelOf(caller: Caller): string {
  if (caller.kind === 'member') return caller.role;
  if (caller.kind === 'granted') return `guest+${caller.role}`;
  return caller.kind;
}

/** Where a content-scoped path parameter's grants are made: `/v1/<segment>/{id}/permissions`. */
const GRANT_SEGMENT: Record<string, 'spaces' | 'collections'> = {
  spaceId: 'spaces',
  collectionId: 'collections',
};

/** How the guard authorizes a route: from its first scoped path parameter, as `scopeOf` picks it. */
interface Rule {
  route: Route;
  declared: Role;
  /** `none`: no scoped parameter, the route answers about the caller alone. */
  scope: 'content' | 'organization' | 'none';
  /** The scoped parameter, for content: whose space or collection a grant must be on. */
  param?: string;
  openToGuests: boolean;
}

type Outcome = 'allowed' | 403 | 404;

/**
 * Routes that also put something beside the resource, where the caller needs `create` too: a copy of a
 * space lands in the space's collection or organization, which a grant on the space alone does not open.
 */
const CREATES_BESIDE = new Set(['POST /v1/spaces/:spaceId/duplicate']);

/**
 * Routes that take content out of its organization: they need the organization's own `admin` role, which
 * a grant on the content does not give.
 */
const LEAVES_ORGANIZATION = new Set([
  'POST /v1/spaces/:spaceId/transfer',
  'POST /v1/collections/:collectionId/transfer',
]);

/** What the permission model says the caller gets on the route. */
function expected(rule: Rule, caller: Caller): Outcome {
  if (rule.scope === 'none') return 'allowed';
  if (caller.kind === 'outsider') return 404;
  if (caller.kind === 'member') return atLeast(caller.role, rule.declared) ? 'allowed' : 403;
  if (rule.scope === 'organization') return rule.openToGuests ? 'allowed' : 403;
  // Content: the default level `inherit` gives guests nothing; a grant gives its role.
  if (caller.kind === 'guest') return 404;
  if (CREATES_BESIDE.has(rule.route.key) || LEAVES_ORGANIZATION.has(rule.route.key)) return 403;
  return atLeast(caller.role, rule.declared) ? 'allowed' : 403;
}

/** The controller classes of the app by name, to read handler metadata route-table.ts does not keep. */
function controllersOf(app: INestApplication): Map<string, Type> {
  const discovery = new DiscoveryService(app.get(ModulesContainer));
  const byName = new Map<string, Type>();
  for (const wrapper of discovery.getControllers()) {
    const controller = wrapper.metatype as Type | null;
    if (controller) byName.set(controller.name, controller);
  }
  return byName;
}

/** Whether the route is `@OpenToGuests()`, read from the handler as the guard reads it. */
function isOpenToGuests(controllers: Map<string, Type>, route: Route): boolean {
  const controller = controllers.get(route.controller);
  if (!controller) throw new Error(`${route.key}: no controller ${route.controller} in the app`);
  return Reflect.getMetadata(OPEN_TO_GUESTS, controller.prototype[route.handler] as object) === true;
}

/** Whether the reply lets the caller through: not refused (401, 403, 404), no server error, an envelope on 4xx. */
function allowedProblem(reply: RawReply): string | undefined {
  if ([401, 403, 404].includes(reply.status) || reply.status >= 500) {
    return `${reply.status} ${reply.text.slice(0, 300)}`;
  }
  return reply.status >= 400 ? envelopeProblem(reply) : undefined;
}

/** Runs `check` on each item, `width` at a time: independent worlds, or a gateway's waits add up. */
async function batched<T>(items: T[], width: number, check: (item: T) => Promise<void>): Promise<void> {
  const pending = [...items];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let item = pending.shift(); item !== undefined; item = pending.shift()) await check(item);
    }),
  );
}

/** Once on the standalone app, once through a gateway with replicas behind it (`TARGETS`). */
const TITLE = 'R4 permission matrix: organization roles, guests with and without grants, outsiders (%s)';

describe.each(TARGETS)(TITLE, (_, useTarget) => {
  const current = useTarget();
  let target: ApiTarget;
  let table: RouteTable;
  let rules: Rule[];
  let world: World;
  let ids: Record<string, string>;
  const tokens = new Map<string, string>();
  const covered = new Map<string, Set<string>>();

  const tokenOf = (caller: Caller) => {
    const token = tokens.get(labelOf(caller));
    if (!token) throw new Error(`no token for ${labelOf(caller)}`);
    return token;
  };

  beforeAll(async () => {
    target = current();
    table = routeTable(target.app);
    world = await createWorld(target, 'R4p');
    ids = pathIds(world, table.api);
    const controllers = controllersOf(target.app);
    rules = table.api
      .filter((route) => route.problems.length === 0 && route.pathParams.every((p) => p.name in ids))
      .flatMap((route) => {
        const declared = declaredRole(route);
        // R4 reports a route without a known declared role.
        if ('problem' in declared) return [];
        const scoped = route.pathParams.find((p) => p.name in ROUTE_SCOPE_LIST);
        const kind = scoped ? ROUTE_SCOPE_LIST[scoped.name].kind : undefined;
        return [
          {
            route,
            declared: declared.role,
            scope: kind === 'content' ? 'content' : kind === undefined ? 'none' : 'organization',
            param: kind === 'content' ? scoped?.name : undefined,
            openToGuests: isOpenToGuests(controllers, route),
          } satisfies Rule,
        ];
      });
    for (const role of ROLES) tokens.set(role, await memberOf(target, world, role));
    tokens.set('guest', (await guestOf(target, world)).token);
    for (const role of ROLES) {
      const guest = await guestOf(target, world);
      await grantOn(target, 'spaces', world.ids.spaceId, role, guest.userId);
      await grantOn(target, 'collections', world.ids.collectionId, role, guest.userId);
      tokens.set(`guest+${role}`, guest.token);
    }
    tokens.set('outsider', await outsider(target));
  }, 60_000);

  const mark = (route: Route, check: string) => {
    const checks = covered.get(route.key) ?? new Set<string>();
    checks.add(check);
    covered.set(route.key, checks);
  };

  /** The route's request as a member would make it: real ids in the path, a body the DTO accepts. */
  function request(route: Route, on: World, pathIdsOf: Record<string, string>, token: string) {
    const body = route.body ? JSON.stringify(validBody(dtoModel(route.body), on, route.key)) : undefined;
    return sendTo(target, route.method, fillPath(route, pathIdsOf), {
      authorization: `Bearer ${token}`,
      raw: body,
    });
  }

  it('every content-scoped route leads to a space or collection grants can be made on', () => {
    const problems = rules
      .filter((rule) => rule.scope === 'content' && !(rule.param && rule.param in GRANT_SEGMENT))
      .map((rule) => `${rule.route.key}: no grant route known for ${rule.param}; add it to GRANT_SEGMENT`);
    expect(problems).toEqual([]);
    // Without guest routes, the guest columns below would check nothing open.
    expect(rules.filter((rule) => rule.openToGuests).length).toBeGreaterThan(0);
  });

  it('the shared space and collection are top-level and `inherit`: members get their organization role', async () => {
    for (const path of [`/v1/spaces/${world.ids.spaceId}`, `/v1/collections/${world.ids.collectionId}`]) {
      const reply = await target.http('GET', path);
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ defaultLevel: 'inherit' });
      expect((reply.body as { parent?: unknown }).parent ?? null).toBeNull();
    }
  });

  it('refused callers get 403 or 404 on every route, and the log does not move', async () => {
    const failures: string[] = [];
    // One request at a time: the log head proves the refused request appended nothing.
    for (const rule of rules) {
      for (const caller of CALLERS) {
        const outcome = expected(rule, caller);
        if (outcome === 'allowed') continue;
        mark(rule.route, `${outcome} ${labelOf(caller)}`);
        const head = await target.logHead();
        const pathIds = caller.kind === 'outsider' ? outsiderIds(rule.route, ids) : ids;
        const reply = await request(rule.route, world, pathIds, tokenOf(caller));
        const after = await target.logHead();
        const problem =
          answerProblem(reply, { status: outcome }) ??
          (after === head ? undefined : `the log moved from ${head} to ${after}`);
        if (problem) failures.push(`${rule.route.key} as ${labelOf(caller)}: ${problem}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('every caller the model allows reads with GET routes, on the shared world', async () => {
    const failures: string[] = [];
    const checks = rules
      .filter((rule) => rule.route.method === 'GET')
      .flatMap((rule) =>
        CALLERS.filter((caller) => expected(rule, caller) === 'allowed').map((caller) => ({ rule, caller })),
      );
    await batched(checks, 4, async ({ rule, caller }) => {
      mark(rule.route, `allowed ${labelOf(caller)}`);
      const problem = allowedProblem(await request(rule.route, world, ids, tokenOf(caller)));
      if (problem) failures.push(`${rule.route.key} as ${labelOf(caller)}: ${problem}`);
    });
    expect(failures.sort()).toEqual([]);
  }, 120_000);

  it('routes that write let the declared role and a guest granted it through, each on fresh resources', async () => {
    const failures: string[] = [];
    // Members above the declared role are left to the GET routes and to R4's order of roles; every
    // kind of guest is checked: granted exactly the declared role on content, open routes otherwise.
    const checks = rules
      .filter((rule) => rule.route.method !== 'GET')
      .flatMap((rule) =>
        CALLERS.filter(
          (caller) =>
            expected(rule, caller) === 'allowed' &&
            (caller.kind === 'guest' ||
              caller.kind === 'outsider' ||
              caller.role === rule.declared ||
              (caller.kind === 'member' && rule.scope === 'none' && caller.role === 'read')),
        ).map((caller) => ({ rule, caller })),
      );
    await batched(checks, 4, async ({ rule, caller }) => {
      const { route } = rule;
      mark(route, `allowed ${labelOf(caller)}`);
      // The action may delete, move or transfer what it acts on.
      const fresh = await createWorld(
        target,
        'R4p fresh',
        route.pathParams.map((p) => p.name),
      );
      const freshIds = pathIds(fresh, [route]);
      let token: string;
      if (caller.kind === 'member') token = await memberOf(target, fresh, caller.role);
      else if (caller.kind === 'outsider') token = await outsider(target);
      else {
        // A member of the destination of transfers with the same role, as `memberOf` makes members.
        const guest = await guestOf(target, fresh, caller.kind === 'granted' ? caller.role : undefined);
        if (caller.kind === 'granted' && rule.param) {
          await grantOn(target, GRANT_SEGMENT[rule.param], freshIds[rule.param], caller.role, guest.userId);
        }
        token = guest.token;
      }
      const problem = allowedProblem(await request(route, fresh, freshIds, token));
      if (problem) failures.push(`${route.key} as ${labelOf(caller)}: ${problem}`);
    });
    expect(failures.sort()).toEqual([]);
    // A world per check: the time grows with the routes.
  }, 240_000);

  it('`permissions` of a space, a collection and the organization follow the effective role', async () => {
    const failures: string[] = [];
    const compare = async (path: string, caller: Caller, want: Record<string, boolean>) => {
      const reply = await target.http('GET', path, { token: tokenOf(caller) });
      const got = (reply.body as { permissions?: unknown } | undefined)?.permissions;
      if (reply.status !== 200 || JSON.stringify(sorted(got)) !== JSON.stringify(sorted(want))) {
        failures.push(
          `GET ${path} as ${labelOf(caller)}: ${reply.status} permissions ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`,
        );
      }
    };
    for (const caller of CALLERS) {
      if (caller.kind !== 'member' && caller.kind !== 'granted') continue;
      // Default levels are `inherit` at the top: a member's effective role is their organization role.
      await compare(`/v1/spaces/${world.ids.spaceId}`, caller, spacePermissions(caller.role));
      await compare(`/v1/collections/${world.ids.collectionId}`, caller, collectionPermissions(caller.role));
      await compare(
        `/v1/orgs/${world.organizationId}`,
        caller,
        organizationPermissions(caller.kind === 'member' ? caller.role : null),
      );
    }
    await compare(`/v1/orgs/${world.organizationId}`, { kind: 'guest' }, organizationPermissions(null));
    expect(failures).toEqual([]);
  });

  it('lists show a guest only what is shared with it, and a member a closed space only once granted', async () => {
    const org = await createWorld(target, 'R4p lists', ['spaceId']);
    const organizationId = org.organizationId;
    const newSpace = async (title: string) => {
      const reply = await target.http('POST', `/v1/orgs/${organizationId}/spaces`, { body: { title } });
      expect(reply.status).toBe(201);
      return (reply.body as { id: string }).id;
    };
    const other = await newSpace('Not shared');
    const closed = await newSpace('Closed');
    const patched = await target.http('PATCH', `/v1/spaces/${closed}`, { body: { defaultLevel: null } });
    expect(patched.status).toBe(200);
    const list = async (what: 'spaces' | 'collections', token: string) => {
      const reply = await target.http('GET', `/v1/orgs/${organizationId}/${what}?limit=100`, { token });
      expect(reply.status).toBe(200);
      const body = reply.body as { count: number; items: { id: string }[] };
      return { count: body.count, ids: body.items.map((item) => item.id).sort() };
    };

    const spaceGuest = await guestOf(target, org);
    await grantOn(target, 'spaces', org.ids.spaceId, 'read', spaceGuest.userId);
    expect(await list('spaces', spaceGuest.token)).toEqual({ count: 1, ids: [org.ids.spaceId] });
    expect(await list('collections', spaceGuest.token)).toEqual({ count: 0, ids: [] });
    const collectionGuest = await guestOf(target, org);
    await grantOn(target, 'collections', org.ids.collectionId, 'edit', collectionGuest.userId);
    expect(await list('collections', collectionGuest.token)).toEqual({
      count: 1,
      ids: [org.ids.collectionId],
    });
    expect(await list('spaces', collectionGuest.token)).toEqual({ count: 0, ids: [] });
    const guest = await guestOf(target, org);
    expect(await list('spaces', guest.token)).toEqual({ count: 0, ids: [] });

    const open = [org.ids.spaceId, other].sort();
    const reader = await addUser(target.setup, { organizationId, role: 'read' });
    expect(await list('spaces', reader.token)).toEqual({ count: 2, ids: open });
    expect((await target.http('GET', `/v1/spaces/${closed}`, { token: reader.token })).status).toBe(404);
    // Organization admins reach every space, closed or not.
    const admin = await memberOf(target, org, 'admin');
    expect(await list('spaces', admin)).toEqual({ count: 3, ids: [...open, closed].sort() });

    await grantOn(target, 'spaces', closed, 'read', reader.userId);
    expect(await list('spaces', reader.token)).toEqual({ count: 3, ids: [...open, closed].sort() });
    const seen = await target.http('GET', `/v1/spaces/${closed}`, { token: reader.token });
    expect(seen.status).toBe(200);
    expect((seen.body as { permissions: unknown }).permissions).toEqual(spacePermissions('read'));
  });

  it('checked every route of the table', () => {
    const matrix = table.api.map((route) => {
      const rule = rules.find((r) => r.route === route);
      const how = rule
        ? `${rule.scope}${rule.param ? `:${rule.param}` : ''} needs ${rule.declared}${rule.openToGuests ? ', open to guests' : ''}`
        : 'not checkable';
      return `${route.key} (${how}): ${[...(covered.get(route.key) ?? [])].join(', ') || '-'}`;
    });
    console.log(`R4 permission matrix coverage (route (scope, declared role): checks)\n${matrix.join('\n')}`);
    expect([...covered.keys()].sort()).toEqual(table.api.map((route) => route.key).sort());
    // Every guest and outsider column is checked on every route; granted roles above the declared one
    // are checked on GET routes only (a world each otherwise), as members above it are.
    const short = rules.filter((rule) => {
      const checks = [...(covered.get(rule.route.key) ?? [])];
      return CALLERS.filter(
        (caller) =>
          caller.kind !== 'member' &&
          (caller.kind !== 'granted' ||
            rule.route.method === 'GET' ||
            expected(rule, caller) !== 'allowed' ||
            caller.role === rule.declared),
      ).some((caller) => !checks.some((check) => check.endsWith(` ${labelOf(caller)}`)));
    });
    expect(short.map((rule) => rule.route.key)).toEqual([]);
  });
});

/** The object with its keys in order, to compare two flat objects whatever their key order. */
function sorted(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)));
}
