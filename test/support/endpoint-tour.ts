import { type GitBookAPI, MemberRole, SpaceEditMode } from '@gitbook/api';
import { expectResponseMatches, expectSchemaMatches } from './openapi';

export type Http = (
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ status: number; body: unknown }>;

/**
 * One pass through every endpoint that exists, through the GitBook client where it has the operation,
 * each 2xx body checked against the GitBook schema and each write checked by a following read.
 * Runs the same against the standalone server and through the cluster's gateway.
 */
export async function endpointTour(
  api: GitBookAPI,
  http: Http,
  org: string,
  otherOrg: string,
): Promise<void> {
  const orgs = await api.orgs.listOrganizationsForAuthenticatedUser();
  expectResponseMatches('listOrganizationsForAuthenticatedUser', 200, orgs.data);
  expect(orgs.data.items.map((o) => o.id)).toEqual(expect.arrayContaining([org, otherOrg]));
  expectResponseMatches('getOrganizationById', 200, (await api.orgs.getOrganizationById(org)).data);

  const box = (await api.orgs.createCollection(org, { title: 'Tour box' })).data;
  expectResponseMatches('createCollection', 201, box);
  const inner = (await api.orgs.createCollection(org, { title: 'Tour inner', parent: box.id })).data;
  const updated = (
    await api.collections.updateCollectionById(box.id, { description: 'Tour', defaultLevel: MemberRole.Read })
  ).data;
  expectResponseMatches('updateCollectionById', 200, updated);
  expect((await api.collections.getCollectionById(box.id)).data).toEqual(updated);
  const listed = (await api.orgs.listCollectionsInOrganizationById(org, { limit: 1000 })).data;
  expectResponseMatches('listCollectionsInOrganizationById', 200, listed);
  expect(listed.items.map((c) => c.id)).toEqual(expect.arrayContaining([box.id, inner.id]));

  const space = (await api.orgs.createSpace(org, { title: 'Tour space', parent: box.id })).data;
  expectResponseMatches('createSpace', 201, space);
  expectResponseMatches(
    'getSpaceById',
    200,
    (await api.spaces.getSpaceById(space.id, { shareKey: 'k' })).data,
  );
  const changed = (
    await api.spaces.updateSpaceById(space.id, { title: 'Tour renamed', editMode: SpaceEditMode.Locked })
  ).data;
  expectResponseMatches('updateSpaceById', 200, changed);
  expect((await api.spaces.getSpaceById(space.id)).data.title).toBe('Tour renamed');
  const inBox = (await api.collections.listSpacesInCollectionById(box.id)).data;
  expectResponseMatches('listSpacesInCollectionById', 200, inBox);
  expect(inBox.items.map((s) => s.id)).toEqual([space.id]);

  const copy = (await api.spaces.duplicateSpace(space.id)).data;
  expectResponseMatches('duplicateSpace', 201, copy);
  const moved = (await api.spaces.moveSpace(copy.id, { parent: null })).data;
  expectResponseMatches('moveSpace', 200, moved);
  expect(moved.parent).toBeUndefined();
  const inOrg = (await api.orgs.listSpacesInOrganizationById(org, { limit: 1000 })).data;
  expectResponseMatches('listSpacesInOrganizationById', 200, inOrg);
  expect(inOrg.items.map((s) => s.id)).toEqual(expect.arrayContaining([space.id, copy.id]));

  expect((await api.spaces.deleteSpaceById(copy.id)).status).toBe(205);
  expect((await api.spaces.getSpaceById(copy.id)).data.deletedAt).toEqual(expect.any(String));
  const restored = (await api.spaces.restoreSpace(copy.id)).data;
  expectResponseMatches('restoreSpace', 200, restored);
  expect(restored.deletedAt).toBeUndefined();

  const transferred = await http('POST', `/v1/spaces/${copy.id}/transfer`, { organization: otherOrg });
  expect(transferred.status).toBe(200);
  expectSchemaMatches('Space', transferred.body);

  const movedBox = (await api.collections.moveCollection(inner.id, { parent: null })).data;
  expectResponseMatches('moveCollection', 200, movedBox);
  const sent = (await api.collections.transferCollection(box.id, { organization: otherOrg })).data;
  expectResponseMatches('transferCollection', 200, sent);
  expect((await api.spaces.getSpaceById(space.id)).data.organization).toBe(otherOrg);
  expect((await api.collections.deleteCollectionById(inner.id)).status).toBe(205);
  expect((await http('GET', `/v1/collections/${inner.id}`)).status).toBe(404);
}
