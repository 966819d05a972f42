import { ROUTE_SCOPE_LIST } from '@app/composition/features';
import { ROLES, type Role } from '@app/platform/domain/roles';
import fc from 'fast-check';
import { type ApiTarget, sendTo, TARGETS } from '../support/api-target';
import { dtoModel } from '../support/dto-model';
import { answerProblem, envelopeProblem, type RawReply } from '../support/http-checks';
import {
  bodyProblems,
  createWorld,
  fillPath,
  memberOf,
  missingFixtures,
  outsider,
  pathIds,
  revokedToken,
  validBody,
  type World,
} from '../support/route-fixtures';
import {
  declaredRole,
  outsiderIds,
  type Route,
  type RouteTable,
  routeTable,
  tableProblems,
} from '../support/route-table';

/** Generated garbage Authorization headers per route. */
const GARBAGE_RUNS = 10;

/** Visible ASCII: what an HTTP header value can carry. */
const HEADER_TEXT = fc.string({
  unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
  minLength: 1,
  maxLength: 60,
});

function below(role: Role): Role | undefined {
  const index = ROLES.indexOf(role);
  return index > 0 ? ROLES[index - 1] : undefined;
}

/** Once on the standalone app, once through a gateway with replicas behind it (`TARGETS`). */
const TITLE = 'R4 authorization matrix on every route, from its declared least role (%s)';

describe.each(TARGETS)(TITLE, (_, useTarget) => {
  const current = useTarget();
  let target: ApiTarget;
  let table: RouteTable;
  let world: World;
  let ids: Record<string, string>;
  let outsiderToken: string;
  let revoked: string;
  const members = new Map<Role, string>();
  const covered = new Map<string, Set<string>>();

  beforeAll(async () => {
    target = current();
    // The routes of the app that answers, so a gateway is checked on the routes it serves itself.
    table = routeTable(target.app);
    world = await createWorld(target, 'R4');
    ids = pathIds(world, table.api);
    outsiderToken = await outsider(target);
    revoked = await revokedToken(target, world);
    for (const role of ROLES) members.set(role, await memberOf(target, world, role));
  });
  const checkable = () =>
    table.api.filter((route) => route.problems.length === 0 && route.pathParams.every((p) => p.name in ids));

  const mark = (route: Route, check: string) => {
    const checks = covered.get(route.key) ?? new Set<string>();
    checks.add(check);
    covered.set(route.key, checks);
  };

  /** The route's request as a member would make it: real ids in the path, a body the DTO accepts. */
  function request(route: Route, on: World, pathIdsOf: Record<string, string>, authorization: string | null) {
    const body = route.body ? JSON.stringify(validBody(dtoModel(route.body), on, route.key)) : undefined;
    return sendTo(target, route.method, fillPath(route, pathIdsOf), { authorization, raw: body });
  }

  /** Sends, then checks the answer is `status` in the envelope and the log did not move. */
  async function refused(
    route: Route,
    authorization: string | null,
    status: number,
    pathIdsOf: Record<string, string> = ids,
  ): Promise<string | undefined> {
    const head = await target.logHead();
    const reply = await request(route, world, pathIdsOf, authorization);
    const after = await target.logHead();
    const problem = answerProblem(reply, { status });
    if (problem && reply.status === 400 && route.body) {
      return `${problem}; the body was refused before authorization: declare a whole body ${route.body.name} accepts with @BodyExample({...}) on the class`;
    }
    if (problem) return problem;
    return after === head ? undefined : `the log moved from ${head} to ${after}`;
  }

  it('the route table matches the router, and every route can be filled, its body accepted by its DTO', async () => {
    const problems = [
      ...tableProblems(table),
      ...table.api.flatMap((route) => route.problems.map((p) => `${route.key} ${p}`)),
      ...missingFixtures(table.api),
      ...(await bodyProblems(table.api, world)),
    ];
    expect(problems).toEqual([]);
  });

  it('every route declares a known least role', () => {
    const problems = table.api.flatMap((route) => {
      const declared = declaredRole(route);
      return 'problem' in declared ? [declared.problem] : [];
    });
    expect(problems).toEqual([]);
  });

  it('401 without a token, with a malformed or unknown one, and with a revoked one', async () => {
    const fixed: [string, string | null][] = [
      ['no Authorization header', null],
      ['Basic scheme', 'Basic x'],
      ['Bearer alone', 'Bearer'],
      ['Bearer and a space', 'Bearer '],
      ['two tokens', `Bearer ${target.token} ${target.token}`],
      ['token without scheme', target.token],
      ['unknown token', 'Bearer gb_api_0000000000000000000000000000000000000000000'],
      ['revoked token', `Bearer ${revoked}`],
    ];
    const failures: string[] = [];
    for (const route of checkable()) {
      mark(route, '401');
      for (const [label, authorization] of fixed) {
        const problem = await refused(route, authorization, 401);
        if (problem) failures.push(`${route.key} [${label}]: ${problem}`);
      }
      try {
        await fc.assert(
          fc.asyncProperty(
            fc.oneof(
              HEADER_TEXT,
              HEADER_TEXT.map((t) => `Bearer ${t}`),
            ),
            async (authorization) => {
              const problem = await refused(route, authorization, 401);
              if (problem) throw new Error(problem);
            },
          ),
          { numRuns: GARBAGE_RUNS },
        );
      } catch (error) {
        const cause = (error as Error).cause;
        failures.push(
          `${route.key} [garbage token]: ${(error as Error).message.split('\n\nHint:')[0]} -> ${cause}`,
        );
      }
    }
    expect(failures).toEqual([]);
  });

  it('404 for a member of another organization only, on every route that addresses a resource', async () => {
    const failures: string[] = [];
    for (const route of checkable()) {
      // A route without a resource in its path (the caller's own organizations, or those of an email
      // domain among them) has nothing to hide.
      if (!route.pathParams.some((p) => p.name in ROUTE_SCOPE_LIST)) continue;
      mark(route, '404 outsider');
      const problem = await refused(route, `Bearer ${outsiderToken}`, 404, outsiderIds(route, ids));
      if (problem) failures.push(`${route.key}: ${problem}`);
    }
    expect(failures).toEqual([]);
  });

  it('403 for a member whose role is just below the declared one', async () => {
    const failures: string[] = [];
    for (const route of checkable()) {
      const declared = declaredRole(route);
      if ('problem' in declared) continue;
      const lower = below(declared.role);
      // Nothing is below `read`: such routes are checked for 401 and 404 only.
      if (!lower) continue;
      mark(route, `403 ${lower}`);
      const problem = await refused(route, `Bearer ${members.get(lower)}`, 403);
      if (problem) failures.push(`${route.key} as ${lower} (needs ${declared.role}): ${problem}`);
    }
    expect(failures).toEqual([]);
  });

  it('the declared role is enough: exactly that role gets neither 401, 403 nor 404', async () => {
    const failures: string[] = [];
    const check = async (route: Route) => {
      const declared = declaredRole(route);
      if ('problem' in declared) return;
      mark(route, `allowed ${declared.role}`);
      // Each route on fresh resources, since the action may delete, move or transfer them.
      const fresh = await createWorld(
        target,
        'R4 fresh',
        route.pathParams.map((p) => p.name),
      );
      const freshIds = pathIds(fresh, [route]);
      const token = await memberOf(target, fresh, declared.role);
      const reply: RawReply = await request(route, fresh, freshIds, `Bearer ${token}`);
      if ([401, 403, 404].includes(reply.status) || reply.status >= 500) {
        failures.push(`${route.key} as ${declared.role}: ${reply.status} ${reply.text}`);
      } else if (reply.status >= 400 && envelopeProblem(reply)) {
        failures.push(`${route.key} as ${declared.role}: ${envelopeProblem(reply)}`);
      }
    };
    // Routes on separate worlds are independent: a few at a time, or the gateway's waits add up.
    const pending = [...checkable()];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let route = pending.shift(); route; route = pending.shift()) await check(route);
      }),
    );
    expect(failures.sort()).toEqual([]);
    // A world per route: the time grows with the routes (near 30 s through a gateway at 130 routes).
  }, 120_000);

  it('checked every route of the table', () => {
    const matrix = table.api.map(
      (route) => `${route.key}: ${[...(covered.get(route.key) ?? [])].join(', ') || '-'}`,
    );
    console.log(`R4 coverage (route: checks)\n${matrix.join('\n')}`);
    expect([...covered.keys()].sort()).toEqual(table.api.map((route) => route.key).sort());
  });
});
