import { randomUUID } from 'node:crypto';
import { FEATURES } from '@app/composition/features';
import { IdentityService } from '@app/identity/write/identity.commands';
import { OrganizationService } from '@app/organizations/write/organization.commands';
import type { Role } from '@app/platform/domain/roles';
import type { PathFixture } from '@app/platform/feature/path-fixture';
import { createValidationPipe } from '@app/platform/http/validation';
import { bodyExampleOf } from '@app/platform/openapi/body-example';
import type { ApiTarget } from './api-target';
import { addOrganization, addUser, SETUP } from './app-harness';
import { type DtoModel, dtoModel, type FieldModel } from './dto-model';
import type { Route } from './route-table';

/** Resources for one set of checks: two organizations, and one resource per path parameter of the features. */
export interface World {
  organizationId: string;
  /** A second organization the same people belong to: the destination of transfers. */
  otherOrganizationId: string;
  /** The id of every path parameter a feature has a fixture for, made in the features' order. */
  ids: Record<string, string>;
}

/**
 * How each path parameter gets a real id: the fixtures the feature manifests declare. A route with a
 * parameter missing here fails the suites, saying so: a new kind of resource needs a fixture in its
 * manifest before its routes can be checked.
 */
const PATH_FIXTURES: [string, PathFixture][] = FEATURES.flatMap((feature) =>
  Object.entries(feature.fixtures ?? {}),
);

/**
 * Required body fields whose valid value is an existing resource, by field name: one of the world's
 * organizations, or the id a feature's fixture made (`spaceId`: a space of the organization, as a site
 * space or section is added with; `sectionId`: the site's section, as a section group takes one). A required field that is constrained (pattern, enumeration) and not
 * listed here fails the authorization suite, saying so.
 */
type BodyFixture = 'organizationId' | 'otherOrganizationId' | 'spaceId' | 'siteSectionId';
const BODY_FIXTURES: Record<string, BodyFixture> = {
  organization: 'otherOrganizationId',
  spaceId: 'spaceId',
  sectionId: 'siteSectionId',
};

/** The world's resource a body fixture names. */
function fixtureValue(world: World, fixture: (typeof BODY_FIXTURES)[string]): string {
  const value = fixture === 'spaceId' || fixture === 'siteSectionId' ? world.ids[fixture] : world[fixture];
  if (value === undefined) throw new Error(`the world has no ${fixture} for a body to name`);
  return value;
}

/** Path parameters of these routes that no fixture can fill, as messages naming where to add one. */
export function missingFixtures(routes: Route[]): string[] {
  return routes.flatMap((route) =>
    route.pathParams
      .filter((param) => !PATH_FIXTURES.some(([name]) => name === param.name))
      .map(
        (param) =>
          `${route.key}: path parameter ${param.name} has no fixture; add one to its feature's manifest (fixtures)`,
      ),
  );
}

/**
 * Two organizations, then the features' fixtures in the features' order, as the administrator: all of
 * them, or those up to the last one `needed` names (a fixture may use any made before it).
 */
export async function createWorld(target: ApiTarget, label: string, needed?: string[]): Promise<World> {
  const organizationId = await addOrganization(target.setup, `${label} organization`);
  const otherOrganizationId = await addOrganization(target.setup, `${label} destination`);
  const call = async (method: string, path: string, body?: unknown) => {
    const reply = await target.http(method, path, body === undefined ? {} : { body });
    if (reply.status < 200 || reply.status >= 300)
      throw new Error(`Fixture ${method} ${path} answered ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body;
  };
  const ids: Record<string, string> = {};
  const world = { organizationId, otherOrganizationId };
  const last = needed
    ? Math.max(-1, ...needed.map((n) => PATH_FIXTURES.findIndex(([name]) => name === n)))
    : Infinity;
  for (const [i, [name, fixture]] of PATH_FIXTURES.entries()) {
    if (i > last) break;
    ids[name] = await fixture({ call, ids, world, label });
  }
  return { ...world, ids };
}

/** The id of every path parameter of the routes that the world has. */
export function pathIds(world: World, routes: Route[]): Record<string, string> {
  const ids: Record<string, string> = {};
  for (const name of new Set(routes.flatMap((r) => r.pathParams.map((p) => p.name)))) {
    if (name in world.ids) ids[name] = world.ids[name];
  }
  return ids;
}

/**
 * The route's path with its parameters filled from `ids`; `override` puts one raw (already encoded) segment in.
 * The rest of the path (`*`) keeps its `/` unencoded, as GitBook's client sends a page path.
 */
export function fillPath(
  route: Route,
  ids: Record<string, string>,
  override?: { name: string; segment: string },
): string {
  const rest = route.pathParams.find((p) => p.rest)?.name;
  return route.path.replace(/:([A-Za-z0-9_]+)|\*$/g, (_m, token: string | undefined) => {
    const name = token ?? rest;
    if (name === undefined) throw new Error(`${route.key}: a wildcard no parameter names`);
    if (override?.name === name) return override.segment;
    const id = ids[name];
    if (id === undefined) throw new Error(`${route.key}: no fixture for path parameter ${name}`);
    return token === undefined ? id.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(id);
  });
}

/** A new user whose only membership is `role` in both organizations of the world. */
export async function memberOf(target: ApiTarget, world: World, role: Role): Promise<string> {
  const member = await addUser(target.setup, { organizationId: world.organizationId, role });
  const { position } = await target.setup.services
    .get(OrganizationService)
    .addMember(world.otherOrganizationId, member.userId, role, SETUP);
  await target.setup.waitFor(position);
  return member.token;
}

/**
 * A guest of the world's organization: added as a member, then given no role there (GitBook's way), so
 * they reach only the spaces and collections shared with them. With `destination`, also a member with that
 * role of the world's other organization, where transfers go.
 */
export async function guestOf(
  target: ApiTarget,
  world: World,
  destination?: Role,
): Promise<{ userId: string; token: string }> {
  const user = await addUser(target.setup, { organizationId: world.organizationId, role: 'read' });
  if (destination) {
    const { position } = await target.setup.services
      .get(OrganizationService)
      .addMember(world.otherOrganizationId, user.userId, destination, SETUP);
    await target.setup.waitFor(position);
  }
  const path = `/v1/orgs/${world.organizationId}/members/${user.userId}`;
  const reply = await target.http('PATCH', path, { body: { role: null } });
  if (reply.status !== 200)
    throw new Error(`PATCH ${path} answered ${reply.status} ${JSON.stringify(reply.body)}`);
  return user;
}

/** Grants `role` on a space or collection to the user, as the world's administrator. */
export async function grantOn(
  target: ApiTarget,
  kind: 'spaces' | 'collections',
  resourceId: string,
  role: Role,
  userId: string,
): Promise<void> {
  const path = `/v1/${kind}/${resourceId}/permissions`;
  const reply = await target.http('POST', path, { body: { role, users: [userId] } });
  if (reply.status !== 204)
    throw new Error(`POST ${path} answered ${reply.status} ${JSON.stringify(reply.body)}`);
}

/** A user who administers an organization of their own and belongs to nothing in the world. */
export async function outsider(target: ApiTarget): Promise<string> {
  const elsewhere = await addUser(target.setup);
  const { position } = await target.setup.services
    .get(OrganizationService)
    .create('Elsewhere', elsewhere.userId, SETUP);
  await target.setup.waitFor(position);
  return elsewhere.token;
}

/** The token of a world administrator, revoked: it would be allowed everything if revocation were ignored. */
export async function revokedToken(target: ApiTarget, world: World): Promise<string> {
  const { services, waitFor } = target.setup;
  const identity = services.get(IdentityService);
  const { userId } = await identity.createUser(
    { displayName: 'Revoked', email: `${randomUUID()}@example.com` },
    SETUP,
  );
  const issued = await identity.issueToken(userId, 'revoked', SETUP);
  await services.get(OrganizationService).addMember(world.organizationId, userId, 'admin', SETUP);
  const revoked = await identity.revokeToken(userId, issued.tokenId, SETUP);
  await waitFor(revoked.position);
  return issued.token;
}

/**
 * A body the DTO accepts: the one its class declares with `@BodyExample` (libs/platform/openapi), its
 * fields that name a resource (BODY_FIXTURES) taken from the world; otherwise one with only the required
 * fields, resources from the world where a field names one, else the first allowed value. A required
 * field this cannot fill is an error naming it.
 */
export function validBody(model: DtoModel, world: World, where: string): Record<string, unknown> {
  const example = bodyExampleOf(model.type);
  if (example) return withWorldIds(example, world);
  const body: Record<string, unknown> = {};
  const fill = (field: FieldModel) => {
    body[field.name] = validValue(field, world, `${where} ${model.type.name}.${field.name}`);
  };
  model.fields.filter((f) => f.required).forEach(fill);
  // Fields a condition makes required once their siblings are set (`space` when `type` is `space`).
  model.fields
    .filter(
      (f) => !(f.name in body) && f.conditions.length > 0 && f.conditions.every((c) => c(body, undefined)),
    )
    .forEach(fill);
  return body;
}

function validValue(field: FieldModel, world: World, where: string): unknown {
  const fixture = BODY_FIXTURES[field.name];
  if (fixture) return fixtureValue(world, fixture);
  if (field.nested) return validBody(field.nested, world, where);
  const allowed = field.values?.find((v) => v !== null && v !== undefined);
  if (allowed !== undefined) return allowed;
  if (field.isBoolean) return false;
  if (field.isInt) return field.min ?? 0;
  if (field.isRFC3339) return new Date(0).toISOString();
  if (field.isObject) return {};
  if (field.isString && !field.pattern) return 'x';
  throw new Error(
    `${where} is required and no value can be made for it: declare a whole body the DTO accepts with @BodyExample({...}) on its class, or add the field to BODY_FIXTURES (test/support/route-fixtures.ts) if it names a resource`,
  );
}

/**
 * For each route with a body: why the body the suites send it (`validBody`) cannot be made, or is refused
 * by the app's validation pipe, naming the DTO. An example a DTO declares is checked here too.
 */
export async function bodyProblems(routes: Route[], world: World): Promise<string[]> {
  const pipe = createValidationPipe();
  const problems: string[] = [];
  for (const route of routes) {
    if (!route.body) continue;
    const type = route.body;
    let body: Record<string, unknown>;
    try {
      body = validBody(dtoModel(type), world, route.key);
    } catch (error) {
      problems.push((error as Error).message);
      continue;
    }
    try {
      await pipe.transform(body, { type: 'body', metatype: type });
    } catch (error) {
      const refused = `${route.key}: ${type.name} refuses the body ${JSON.stringify(body)} (${(error as Error).message})`;
      problems.push(
        bodyExampleOf(type)
          ? `${refused}: make its @BodyExample one it accepts`
          : `${refused}: declare a whole body it accepts with @BodyExample({...}) on the class`,
      );
    }
  }
  return problems;
}

/** The example with its fields that name a resource (BODY_FIXTURES) set to the world's. */
function withWorldIds(example: Record<string, unknown>, world: World): Record<string, unknown> {
  const body = structuredClone(example);
  for (const [field, fixture] of Object.entries(BODY_FIXTURES))
    if (field in body) body[field] = fixtureValue(world, fixture);
  return body;
}
