import { addOrganization, useTestApp } from '../support/app-harness';
import { endpointTour, unvisitedRoutes } from '../support/endpoint-tour';
import { routeTable } from '../support/route-table';

describe('every endpoint, standalone', () => {
  const current = useTestApp();

  it('completes the endpoint tour, which visits every route of the app', async () => {
    const app = current();
    const other = await addOrganization(app, 'Tour target');
    const visits = await endpointTour(
      app.api(),
      (method, path, body) => app.http(method, path, { body }),
      app.organizationId,
      other,
      (path, init) => fetch(`${app.url}${path}`, init),
    );
    expect(unvisitedRoutes(routeTable(app.built.app).all, visits)).toEqual([]);
  });
});
