import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { signingIdentity } from '@app/sso/domain/certificate.testing';
import { GitBookAPI, MemberRole, SpaceEditMode, TeamMemberRole } from '@gitbook/api';
import { checkedClient, expectValidReply, loadProjectRoutes } from './checked-responses';
import { ROOT } from './process-harness';
import type { Route } from './route-table';
import { samlResponse } from './saml-idp';

export type FetchPath = (pathAndQuery: string, init?: RequestInit) => Promise<Response>;

export type Http = (
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ status: number; body: unknown }>;

/** What a feature's own tour is given: the same recorded, checked client and requests as the scenario. */
export interface TourContext {
  api: GitBookAPI;
  /** A request whose 2xx body is checked against its route's schema. */
  http: Http;
  fetchPath: FetchPath;
  /** The tour's organization (its caller administers it), and a second one. */
  org: string;
  otherOrg: string;
}

/**
 * The tour of a feature's own routes, declared in its folder as `export const tour` of
 * `libs/<feature>/<feature>.tour.ts` (found by that name; the scaffold writes one), run after the
 * scenario: a new feature's routes are toured without editing this file.
 */
export type FeatureTour = (ctx: TourContext) => Promise<void>;

/** Every feature's own tour, in the order of the libraries' names. */
async function featureTours(): Promise<FeatureTour[]> {
  const libs = join(ROOT, 'libs');
  const files = readdirSync(libs)
    .sort()
    .map((lib) => join(libs, lib, `${lib}.tour.ts`))
    .filter((file) => existsSync(file));
  return Promise.all(files.map(async (file) => ((await import(file)) as { tour: FeatureTour }).tour));
}

/**
 * One pass through every endpoint that exists, through the GitBook client where it has the operation,
 * each 2xx body checked strictly against its GitBook schema (checked-responses.ts: whatever client and
 * http function the caller passes, the tour checks their answers) and each write checked by a
 * following read. Runs the same against the standalone server and through the cluster's gateway.
 * Returns every request it made, `METHOD /path` (no query), for `unvisitedRoutes`.
 */
export async function endpointTour(
  client: GitBookAPI,
  unchecked: Http,
  org: string,
  otherOrg: string,
  /** Fetches a path (with its query) of the server the tour runs against, with no token: downloads, sign-in. */
  unrecordedFetchPath: FetchPath,
): Promise<string[]> {
  await loadProjectRoutes();
  const visits: string[] = [];
  const visit = (method: string, url: string) =>
    visits.push(`${method.toUpperCase()} ${new URL(url, 'http://tour').pathname}`);
  const checked = checkedClient(client);
  const clientFetch = checked.serviceBinding?.fetch ?? fetch;
  const api = new GitBookAPI({
    endpoint: checked.endpoint,
    authToken: checked.authToken,
    userAgent: checked.userAgent,
    serviceBinding: {
      fetch: (input, init) => {
        const request = input instanceof Request ? input : undefined;
        visit(init?.method ?? request?.method ?? 'GET', request ? request.url : input.toString());
        return clientFetch(input, init);
      },
    },
  });
  const http: Http = async (method, path, body) => {
    visit(method, path);
    const reply = await unchecked(method, path, body);
    expectValidReply(method, path, reply.status, reply.body);
    return reply;
  };
  const fetchPath: FetchPath = (path, init) => {
    visit(init?.method ?? 'GET', path);
    return unrecordedFetchPath(path, init);
  };
  const orgs = await api.orgs.listOrganizationsForAuthenticatedUser();
  expect(orgs.data.items.map((o) => o.id)).toEqual(expect.arrayContaining([org, otherOrg]));
  expect((await api.orgs.getOrganizationById(org)).data.id).toBe(org);

  const box = (await api.orgs.createCollection(org, { title: 'Tour box' })).data;
  const inner = (await api.orgs.createCollection(org, { title: 'Tour inner', parent: box.id })).data;
  const updated = (
    await api.collections.updateCollectionById(box.id, { description: 'Tour', defaultLevel: MemberRole.Read })
  ).data;
  expect((await api.collections.getCollectionById(box.id)).data).toEqual(updated);
  const listed = (await api.orgs.listCollectionsInOrganizationById(org, { limit: 1000 })).data;
  expect(listed.items.map((c) => c.id)).toEqual(expect.arrayContaining([box.id, inner.id]));

  const space = (await api.orgs.createSpace(org, { title: 'Tour space', parent: box.id })).data;
  expect((await api.spaces.getSpaceById(space.id, { shareKey: 'k' })).data.id).toBe(space.id);
  const changed = (
    await api.spaces.updateSpaceById(space.id, { title: 'Tour renamed', editMode: SpaceEditMode.Locked })
  ).data;
  expect(changed.title).toBe('Tour renamed');
  expect((await api.spaces.getSpaceById(space.id)).data.title).toBe('Tour renamed');
  const inBox = (await api.collections.listSpacesInCollectionById(box.id)).data;
  expect(inBox.items.map((s) => s.id)).toEqual([space.id]);

  await contentTour(api, http, org, space.id);
  await fileTour(api, http, fetchPath, space.id);
  await pdfTour(api, fetchPath, space.id);
  await translationTour(api, org);
  await organizationTour(api, otherOrg);
  const me = (await api.spaces.createChangeRequest(space.id, { subject: 'Tour teams' })).data.createdBy.id;
  await teamTour(api, org, me);
  await permissionsTour(api, org, me, space.id, box.id);
  await memberTour(api, http, fetchPath, org, me);
  const signedIn = await ssoTour(api, org, fetchPath);
  await reviewerTour(api, http, space.id, signedIn);
  await inviteTour(api, org);

  const copy = (await api.spaces.duplicateSpace(space.id)).data;
  const moved = (await api.spaces.moveSpace(copy.id, { parent: null })).data;
  expect(moved.parent).toBeUndefined();
  const inOrg = (await api.orgs.listSpacesInOrganizationById(org, { limit: 1000 })).data;
  expect(inOrg.items.map((s) => s.id)).toEqual(expect.arrayContaining([space.id, copy.id]));

  expect((await api.spaces.deleteSpaceById(copy.id)).status).toBe(205);
  expect((await api.spaces.getSpaceById(copy.id)).data.deletedAt).toEqual(expect.any(String));
  const restored = (await api.spaces.restoreSpace(copy.id)).data;
  expect(restored.deletedAt).toBeUndefined();

  const transferred = await http('POST', `/v1/spaces/${copy.id}/transfer`, { organization: otherOrg });
  expect(transferred.status).toBe(200);
  expect((transferred.body as { organization: string }).organization).toBe(otherOrg);

  const movedBox = (await api.collections.moveCollection(inner.id, { parent: null })).data;
  expect(movedBox.parent).toBeUndefined();
  const sent = (await api.collections.transferCollection(box.id, { organization: otherOrg })).data;
  expect(sent.organization).toBe(otherOrg);
  expect((await api.spaces.getSpaceById(space.id)).data.organization).toBe(otherOrg);
  expect((await api.collections.deleteCollectionById(inner.id)).status).toBe(205);
  expect((await http('GET', `/v1/collections/${inner.id}`)).status).toBe(404);
  for (const tour of await featureTours()) await tour({ api, http, fetchPath, org, otherOrg });
  await auditTour(api, org);
  await operatorTour(fetchPath);
  return visits;
}

/** The audit log of the tour's organization: its actions, its events, one event in detail. */
async function auditTour(api: GitBookAPI, org: string) {
  const actions = (await api.orgs.listOrganizationAuditEventActions(org)).data.items;
  expect(actions.length).toBeGreaterThan(0);
  const events = (await api.orgs.listOrganizationAuditEvents(org, { limit: 5 })).data.items;
  expect(events.length).toBeGreaterThan(0);
  expect((await api.orgs.getOrganizationAuditEvent(org, events[0].id)).data.id).toBe(events[0].id);
}

/** What an operator or a load balancer asks, with no token: liveness, readiness and the metrics. */
async function operatorTour(fetchPath: FetchPath) {
  expect((await fetchPath('/health')).status).toBe(200);
  expect((await fetchPath('/ready')).status).toBe(200);
  const metrics = await fetchPath('/metrics');
  expect(metrics.status).toBe(200);
  expect(await metrics.text()).toMatch(/^# HELP /m);
}

/** A route's path as a pattern of the paths that reach it: `:name` one segment, a trailing `*` the rest. */
function pathPattern(route: Route): RegExp {
  const escaped = route.path.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/:[A-Za-z0-9_]+/g, '[^/]+').replace(/\*$/, '.+')}$`);
}

/** How literal a route's path is, segment by segment: the router prefers `/orgs/x/spaces` to `/orgs/x/:other`. */
const literalness = (route: Route) =>
  route.path
    .split('/')
    .map((segment) => (segment.startsWith(':') || segment === '*' ? '1' : '0'))
    .join('');

/**
 * The routes of the table that none of the tour's requests reached (the route the router would pick for
 * each: literal segments first), as messages naming their handlers.
 */
export function unvisitedRoutes(routes: Route[], visits: string[]): string[] {
  const patterns = routes.map((route) => ({ route, pattern: pathPattern(route) }));
  const reached = new Set<string>();
  for (const visit of visits) {
    const [method, path] = visit.split(' ');
    const candidates = patterns
      .filter(({ route, pattern }) => route.method === method && pattern.test(path))
      .map(({ route }) => route)
      .sort((a, b) => literalness(a).localeCompare(literalness(b)));
    if (candidates[0]) reached.add(candidates[0].key);
  }
  return routes
    .filter((route) => !reached.has(route.key))
    .map(
      (route) =>
        `${route.key} (${route.controller}.${route.handler}) is not visited by the endpoint tour (test/support/endpoint-tour.ts, or its feature's <feature>.tour.ts)`,
    );
}

/** Change requests and content: write a page in a change request, merge it, read it every way. */
async function contentTour(api: GitBookAPI, http: Http, org: string, space: string): Promise<void> {
  const cr = (await api.spaces.createChangeRequest(space, { subject: 'Tour edit' })).data;
  expect((await api.spaces.getChangeRequestById(space, String(cr.number))).data.id).toBe(cr.id);
  const renamed = (await api.spaces.updateChangeRequestById(space, cr.id, { subject: 'Tour edits' })).data;
  expect(renamed.subject).toBe('Tour edits');
  const written = await http('POST', `/v1/spaces/${space}/change-requests/${cr.id}/content?compat=false`, {
    changes: [
      { operation: 'insert_page', title: 'Tour page', slug: 'tour', document: { markdown: 'Hello.\n' } },
    ],
  });
  const page = (written.body as { changes: { page: { id: string } }[] }).changes[0].page.id;
  // A page under it: the client sends its path `tour/step` unencoded.
  const under = await http('POST', `/v1/spaces/${space}/change-requests/${cr.id}/content?compat=false`, {
    changes: [
      {
        operation: 'insert_page',
        title: 'Tour step',
        slug: 'step',
        into: page,
        document: { markdown: 'Next.\n' },
      },
    ],
  });
  const step = (under.body as { changes: { page: { id: string } }[] }).changes[0].page.id;
  expect((await api.spaces.getRevisionOfChangeRequestById(space, cr.id)).data.pages).toHaveLength(1);
  expect((await api.spaces.listPagesInChangeRequest(space, cr.id)).data.pages).toHaveLength(1);
  expect((await api.spaces.getPageInChangeRequestById(space, cr.id, page)).data.id).toBe(page);
  expect((await api.spaces.getPageInChangeRequestByPath(space, cr.id, 'tour')).data.id).toBe(page);
  expect((await api.spaces.getPageInChangeRequestByPath(space, cr.id, 'tour/step')).data.id).toBe(step);
  expect((await api.spaces.listFilesInChangeRequestById(space, cr.id)).data.items).toEqual([]);
  expect((await api.spaces.getChangeRequestChanges(space, cr.id)).data.changes).toHaveLength(2);
  const listed = (await api.spaces.listChangeRequestsForSpace(space)).data.items.map((c) => c.id);
  expect(listed).toContain(cr.id);
  const inOrg = (await api.orgs.listChangeRequestsForOrganization(org)).data.items.map((c) => c.id);
  expect(inOrg).toContain(cr.id);
  expect((await api.spaces.updateChangeRequest(space, cr.id)).data.result).toBe('update');
  const merged = (await api.spaces.mergeChangeRequest(space, cr.id)).data;
  expect(merged.result).toBe('merge');
  expect((await api.spaces.getCurrentRevision(space)).data.id).toBe(merged.revision);
  expect((await api.spaces.listPages(space)).data.pages).toHaveLength(1);
  expect((await api.spaces.getPageById(space, page, { format: 'markdown' })).data.id).toBe(page);
  expect((await api.spaces.getPageByPath(space, 'tour')).data.id).toBe(page);
  expect((await api.spaces.getPageByPath(space, 'tour/step', { format: 'markdown' })).data.id).toBe(step);
  expect((await api.spaces.listFiles(space)).data.items).toEqual([]);
  expect((await api.spaces.getRevisionById(space, merged.revision)).data.id).toBe(merged.revision);
  expect((await api.spaces.listPagesInRevisionById(space, merged.revision)).data.pages).toHaveLength(1);
  expect((await api.spaces.listFilesInRevisionById(space, merged.revision)).data.items).toEqual([]);
  expect((await api.spaces.getPageInRevisionById(space, merged.revision, page)).data.id).toBe(page);
  expect((await api.spaces.getPageInRevisionByPath(space, merged.revision, 'tour')).data.id).toBe(page);
  expect((await api.spaces.getPageInRevisionByPath(space, merged.revision, 'tour/step')).data.id).toBe(step);
  expect((await api.spaces.getPageDocumentInRevisionById(space, merged.revision, page)).data.object).toBe(
    'document',
  );
  expect((await api.spaces.getRevisionSemanticChanges(space, merged.revision)).data.changes).toHaveLength(2);
  const found = (await api.spaces.searchSpaceContent(space, { query: 'hello' })).data;
  expect(found.items.map((r) => r.id)).toEqual([page]);
  const everywhere = (await api.orgs.searchOrganizationContent(org, { query: 'hello' })).data;
  expect(everywhere.items.map((r) => r.id)).toContain(space);
  for (const path of [
    `/v1/spaces/${space}/links`,
    `/v1/spaces/${space}/content/page/${page}/links`,
    `/v1/spaces/${space}/change-requests/${cr.id}/content/page/${page}/links`,
  ]) {
    expect((await http('GET', path)).body).toMatchObject({ count: 0, items: [] });
  }
  const url = 'https://github.com/GitbookIO/gitbook';
  const card = { type: 'link', title: 'github.com/GitbookIO/gitbook', site: 'github.com' };
  expect((await api.spaces.getEmbedByUrlInSpace(space, { url })).data).toEqual(card);
  expect((await api.urls.getEmbedByUrl({ url })).data).toEqual(card);
  await contentReviews(api, http, space);
}

/**
 * A file uploaded as base64 in a change request, read there, in the space once merged and in the merged
 * revision, its backlinks listed (none: no page names it), its bytes downloaded without a token.
 */
async function fileTour(api: GitBookAPI, http: Http, fetchPath: FetchPath, space: string) {
  const cr = (await api.spaces.createChangeRequest(space, { subject: 'Tour file' })).data;
  const bytes = 'Tour notes.\n';
  const uploaded = await http('POST', `/v1/spaces/${space}/change-requests/${cr.id}/content?compat=false`, {
    changes: [
      {
        operation: 'insert_files',
        files: [
          { name: 'tour.txt', contentType: 'text/plain', base64: Buffer.from(bytes).toString('base64') },
        ],
      },
    ],
  });
  const [file] = (uploaded.body as { insertedFiles: { id: string; downloadURL: string }[] }).insertedFiles;
  expect((await api.spaces.getFileInChangeRequestById(space, cr.id, file.id)).data.id).toBe(file.id);
  const none = { count: 0, items: [] };
  const inChangeRequest = `/v1/spaces/${space}/change-requests/${cr.id}/content/files/${file.id}/backlinks`;
  expect((await http('GET', inChangeRequest)).body).toMatchObject(none);
  const merged = (await api.spaces.mergeChangeRequest(space, cr.id)).data;
  expect(merged.result).toBe('merge');
  expect((await api.spaces.getFileById(space, file.id)).data.id).toBe(file.id);
  expect((await api.spaces.getFileInRevisionById(space, merged.revision, file.id)).data.id).toBe(file.id);
  expect((await http('GET', `/v1/spaces/${space}/content/files/${file.id}/backlinks`)).body).toMatchObject(
    none,
  );
  const download = await fetchPath(new URL(file.downloadURL).pathname);
  expect(await download.text()).toBe(bytes);
}

/** Another member of the organization asked to review a change request, then no longer. */
async function reviewerTour(api: GitBookAPI, http: Http, space: string, reviewer: string) {
  const cr = (await api.spaces.createChangeRequest(space, { subject: 'Tour reviewer' })).data;
  await api.spaces.requestReviewersForChangeRequest(space, cr.id, { users: [reviewer] });
  expect((await api.spaces.getRequestedReviewersByChangeRequestId(space, cr.id)).data.items).toHaveLength(1);
  const path = `/v1/spaces/${space}/change-requests/${cr.id}/requested-reviewers/${reviewer}`;
  expect((await http('DELETE', path)).status).toBe(205);
}

/** Reviews and requested reviewers on a change request of the tour's space. */
async function contentReviews(api: GitBookAPI, http: Http, space: string): Promise<void> {
  const cr = (await api.spaces.createChangeRequest(space, { subject: 'Tour review' })).data;
  const review = (await api.spaces.submitChangeRequestReview(space, cr.id, { status: 'approved' } as never))
    .data;
  expect((await api.spaces.getChangeRequestReviewById(space, cr.id, review.id)).data.id).toBe(review.id);
  expect((await api.spaces.getReviewsByChangeRequestId(space, cr.id)).data.items).toHaveLength(1);
  expect((await api.spaces.getRequestedReviewersByChangeRequestId(space, cr.id)).data.items).toEqual([]);
  const removed = await http(
    'DELETE',
    `/v1/spaces/${space}/change-requests/${cr.id}/requested-reviewers/${cr.createdBy.id}`,
  );
  expect(removed.status).toBe(204);
}

/**
 * PDF exports of the space and of a change request: signed links, followed without a token (through a
 * gateway, on any query replica).
 */
async function pdfTour(api: GitBookAPI, fetchPath: FetchPath, space: string) {
  const cr = (await api.spaces.createChangeRequest(space, { subject: 'Tour PDF' })).data;
  for (const { url } of [
    (await api.spaces.getSpacePdf(space)).data,
    (await api.spaces.getChangeRequestPdf(space, cr.id)).data,
  ]) {
    const { pathname, search } = new URL(url);
    const pdf = await fetchPath(`${pathname}${search}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  }
}

/** Teams and their members: made, renamed, filled one by one and in bulk, emptied and deleted. */
async function teamTour(api: GitBookAPI, org: string, me: string) {
  const team = (await api.orgs.createOrganizationTeam(org, { title: 'Tour team' })).data;
  const renamed = (await api.orgs.updateTeamInOrganizationById(org, team.id, { title: 'Tour crew' })).data;
  expect((await api.orgs.getTeamInOrganizationById(org, team.id)).data).toEqual(renamed);
  const found = (await api.orgs.listTeamsInOrganizationById(org, { title: 'tour CREW' })).data;
  expect(found.items.map((t) => t.id)).toEqual([team.id]);
  expect((await api.orgs.addMemberToOrganizationTeamById(org, team.id, me, {})).status).toBe(204);
  const bulk = await api.orgs.updateMembersInOrganizationTeam(org, team.id, {
    memberships: { [me]: { role: TeamMemberRole.Owner } },
  });
  expect(bulk.status).toBe(204);
  const members = (await api.orgs.listTeamMembersInOrganizationById(org, team.id)).data;
  expect(members.items.map((m) => [m.organization.id, m.team.role])).toEqual([[me, 'owner']]);
  expect((await api.orgs.deleteMemberFromOrganizationTeamById(org, team.id, me)).status).toBe(204);
  expect((await api.orgs.getTeamInOrganizationById(org, team.id)).data.members).toBe(0);
  expect((await api.orgs.removeTeamFromOrganizationById(org, team.id)).status).toBe(204);
}

/** Grants on a space and a collection to a user and a team: invited, listed, changed and taken away. */
async function permissionsTour(api: GitBookAPI, org: string, me: string, space: string, collection: string) {
  const team = (await api.orgs.createOrganizationTeam(org, { title: 'Tour grantees', members: [me] })).data
    .id;
  for (const [kind, id] of [
    ['space', space],
    ['collection', collection],
  ] as const) {
    const calls = {
      invite: kind === 'space' ? api.spaces.inviteToSpace : api.collections.inviteToCollection,
      users:
        kind === 'space'
          ? api.spaces.listUserPermissionsInSpace
          : api.collections.listUserPermissionsInCollection,
      teams:
        kind === 'space'
          ? api.spaces.listTeamPermissionsInSpace
          : api.collections.listTeamPermissionsInCollection,
      aggregate:
        kind === 'space'
          ? api.spaces.listPermissionsAggregateInSpace
          : api.collections.listPermissionsAggregateInCollection,
      setUser:
        kind === 'space'
          ? api.spaces.updateUserPermissionInSpace
          : api.collections.updateUserPermissionInCollection,
      setTeam:
        kind === 'space'
          ? api.spaces.updateTeamPermissionInSpace
          : api.collections.updateTeamPermissionInCollection,
      removeUser:
        kind === 'space' ? api.spaces.removeUserFromSpace : api.collections.removeUserFromCollection,
      removeTeam:
        kind === 'space' ? api.spaces.removeTeamFromSpace : api.collections.removeTeamFromCollection,
    };
    expect((await calls.invite(id, { role: MemberRole.Read, users: [me], teams: [team] })).status).toBe(204);
    expect((await calls.users(id)).data.items.map((p) => [p.user.id, p.permission])).toEqual([[me, 'read']]);
    expect((await calls.teams(id)).data.items.map((p) => [p.team.id, p.permission])).toEqual([
      [team, 'read'],
    ]);
    expect((await calls.setUser(id, me, { role: MemberRole.Edit })).status).toBe(204);
    expect((await calls.setTeam(id, team, { role: MemberRole.Comment })).status).toBe(204);
    const reach = (await calls.aggregate(id, { role: MemberRole.Admin })).data;
    expect(reach.items.map((p) => p.user.id)).toContain(me);
    expect((await calls.removeUser(id, me)).status).toBe(205);
    expect((await calls.removeTeam(id, team)).status).toBe(205);
  }
}

/** Members listed, read, updated, set as SSO, their teams and spaces; a ping and the keys that verify it. */
async function memberTour(api: GitBookAPI, http: Http, fetchPath: FetchPath, org: string, me: string) {
  const listed = (await api.orgs.listMembersInOrganizationById(org, { limit: 1000, role: MemberRole.Admin }))
    .data;
  expect(listed.items.map((m) => m.id)).toContain(me);
  const member = (await api.orgs.getMemberInOrganizationById(org, me)).data;
  expect(member).toMatchObject({ id: me, role: 'admin' });
  expect((await api.orgs.updateMemberInOrganizationById(org, me, { role: MemberRole.Admin })).data).toEqual(
    member,
  );
  expect((await api.orgs.setUserAsSsoMemberForOrganization(org, me)).data.sso).toBe(true);
  const team = (await api.orgs.createOrganizationTeam(org, { title: 'Tour members', members: [me] })).data;
  const teams = (await api.orgs.listTeamsForOrganizationMember(org, me, { title: 'tour MEMBERS' })).data;
  expect(teams.items.map((i) => i.team.id)).toEqual([team.id]);
  const spaces = (await api.orgs.listSpacesForOrganizationMember(org, me, { limit: 1000 })).data;
  expect(spaces.items.every((i) => i.permission === 'admin')).toBe(true);
  const claims = (await api.orgs.updateOrganizationMemberLastSeenAt(org)).data as {
    serviceVisitorClaims?: string;
  };
  const kid = JSON.parse(
    Buffer.from(String(claims.serviceVisitorClaims).split('.')[0], 'base64url').toString(),
  ).kid;
  const jwks = (await (await fetchPath('/v1/.well-known/jwks.json')).json()) as { keys: { kid: string }[] };
  expect(jwks.keys.map((k) => k.kid)).toContain(kid);
  expect((await api.orgs.getMemberInOrganizationById(org, me)).data.lastSeenAt).toEqual(expect.any(String));
  // The tour's user is the organization's only admin: it stays.
  expect((await http('DELETE', `/v1/orgs/${org}/members/${me}`)).status).toBe(409);
  expect((await api.orgs.removeTeamFromOrganizationById(org, team.id)).status).toBe(204);
}

/** Invite links made, read, updated, used by a member (nothing to join) and deleted; an email invite. */
async function inviteTour(api: GitBookAPI, org: string) {
  const link = (await api.orgs.createOrganizationInvite(org, { role: MemberRole.Read })).data;
  expect((await api.orgs.getOrganizationInviteLink(org, link.id)).data).toEqual(link);
  const updated = (await api.orgs.updateOrganizationInviteById(org, link.id, { role: MemberRole.Edit })).data;
  expect(updated).toEqual({ ...link, role: 'edit' });
  const listed = (await api.orgs.listOrganizationInviteLinks(org, { limit: 1000 })).data;
  expect(listed.items).toContainEqual(updated);
  expect((await api.orgs.joinOrganizationWithInvite(org, link.id)).status).toBe(200);
  const invited = (await api.orgs.inviteUsersToOrganization(org, { emails: ['tour-invitee@example.com'] }))
    .data;
  expect(invited).toEqual({ users: [], invited: 1 });
  expect((await api.orgs.deleteOrganizationInviteById(org, link.id)).status).toBe(205);
  expect((await api.orgs.listOrganizationInviteLinks(org, { limit: 1000 })).data.items).not.toContainEqual(
    updated,
  );
}

/**
 * SAML providers: one made pending and configured by an update, one made whole; the sign-in options; a
 * member signing in with the whole one (start, metadata, a signed response posted back, the token it
 * answers used); a deletion. Returns the id of the member who signed in.
 */
async function ssoTour(api: GitBookAPI, org: string, fetchPath: FetchPath): Promise<string> {
  const day = 24 * 60 * 60 * 1000;
  const idp = await signingIdentity(new Date(Date.now() - day), new Date(Date.now() + 3650 * day));
  const settings = {
    entityID: 'urn:tour:idp',
    ssoURL: 'https://idp.example.com/sso',
    certificate: idp.certificate,
  };
  const pending = (await api.orgs.createOrganizationSamlProvider(org, { label: 'Tour pending' })).data;
  expect(pending.status).toBe('pending');
  const whole = (
    await api.orgs.createOrganizationSamlProvider(org, {
      label: 'Tour IdP',
      ...settings,
      defaultRole: MemberRole.Read,
    })
  ).data;
  expect(whole.status).toBe('active');
  const configured = (await api.orgs.updateOrganizationSamlProvider(org, pending.id, settings)).data;
  expect(configured.status).toBe('active');
  expect((await api.orgs.getOrganizationSamlProviderById(org, pending.id)).data).toEqual(configured);
  const listed = (await api.orgs.listSamlProvidersInOrganizationById(org, { limit: 1000 })).data;
  expect(listed.items.map((p) => p.id)).toEqual(expect.arrayContaining([pending.id, whole.id]));
  const logins = (await api.orgs.listSsoProviderLoginsInOrganization(org)).data;
  expect(logins.items.map((l) => l.id)).toEqual(expect.arrayContaining([pending.id, whole.id]));

  const path = (url: string) => new URL(url).pathname;
  const start = await fetchPath(`${path(whole.service.startURL)}?relayState=tour`, { redirect: 'manual' });
  expect(start.status).toBe(302);
  expect(start.headers.get('location')).toMatch(/^https:\/\/idp\.example\.com\/sso\?SAMLRequest=/);
  expect(await (await fetchPath(path(whole.service.entityID))).text()).toContain(whole.service.acsURL);
  const response = samlResponse(idp, {
    issuer: settings.entityID,
    audience: whole.service.entityID,
    acsURL: whole.service.acsURL,
    nameID: `tour-${Date.now()}@example.com`,
  });
  const signedIn = await fetchPath(path(whole.service.acsURL), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ SAMLResponse: response }).toString(),
  });
  expect(signedIn.status).toBe(200);
  const session = (await signedIn.json()) as { token: string; user: string };
  const member = await fetchPath(`/v1/orgs/${org}/members/${session.user}`, {
    headers: { authorization: `Bearer ${session.token}` },
  });
  expect(await member.json()).toMatchObject({ role: 'read', sso: true });

  expect((await api.orgs.deleteOrganizationSamlProvider(org, whole.id)).status).toBe(204);
  const after = (await api.orgs.listSsoProviderLoginsInOrganization(org)).data;
  expect(after.items.map((l) => l.id)).not.toContain(whole.id);
  return session.user;
}

/** Translation settings (the seeds' shape, which GitBook's client sends as given): made, replaced, listed, deleted. */
async function translationTour(api: GitBookAPI, org: string) {
  const body = (value: { title: string; languages?: string[] }) => value as never;
  const made = (
    await api.orgs.createTranslation(org, body({ title: 'Tour translations', languages: ['fr'] }))
  ).data;
  const replaced = (
    await api.orgs.updateTranslation(org, made.id, body({ title: 'Tour', languages: ['de'] }))
  ).data;
  expect(replaced).toMatchObject({ title: 'Tour', languages: ['de'] });
  expect((await api.orgs.getTranslation(org, made.id)).data).toEqual(replaced);
  const listed = (await api.orgs.listTranslations(org, { limit: 1000 })).data;
  expect(listed.items.map((t) => t.id)).toContain(made.id);
  expect((await api.orgs.deleteTranslation(org, made.id)).status).toBe(205);
}

/** An organization's settings updated, and found by one of its email domains. */
async function organizationTour(api: GitBookAPI, org: string) {
  const updated = (
    await api.orgs.updateOrganizationById(org, {
      title: 'Tour organization',
      emailDomains: ['tour.example.com'],
      defaultRole: MemberRole.Read,
      inviteLinks: true,
    })
  ).data;
  expect((await api.orgs.getOrganizationById(org)).data).toEqual(updated);
  const found = (await api.emailDomains.getOrganizationsForEmailDomain('tour.example.com')).data;
  expect(found.organizations.map((o) => o.id)).toEqual([org]);
}
