import type { FeatureTour } from '../../test/support/endpoint-tour';

/**
 * Every route of __labels__, for the endpoint tour (test/support/endpoint-tour.ts finds this file by its
 * name): each write checked by a following read, each 2xx body by the route's schema.
 */
export const tour: FeatureTour = async ({ http, org }) => {
  const created = await http('POST', `/v1/orgs/${org}/__names__`, { title: 'Tour __label__' });
  expect(created.status).toBe(201);
  const { id } = created.body as { id: string };
  const listed = await http('GET', `/v1/orgs/${org}/__names__`);
  expect((listed.body as { items: { id: string }[] }).items.map((item) => item.id)).toContain(id);
  const updated = await http('PATCH', `/v1/__names__/${id}`, { title: 'Tour __label__ renamed' });
  expect(updated.body).toMatchObject({ id, title: 'Tour __label__ renamed' });
  expect((await http('GET', `/v1/__names__/${id}`)).body).toMatchObject({ title: 'Tour __label__ renamed' });
  expect((await http('DELETE', `/v1/__names__/${id}`)).status).toBe(204);
  expect((await http('GET', `/v1/__names__/${id}`)).status).toBe(404);
};
