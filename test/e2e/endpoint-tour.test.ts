import { addOrganization, useTestApp } from '../support/app-harness';
import { endpointTour } from '../support/endpoint-tour';

describe('every endpoint, standalone', () => {
  const current = useTestApp();

  it('completes the endpoint tour', async () => {
    const app = current();
    const other = await addOrganization(app, 'Tour target');
    await endpointTour(
      app.api(),
      (method, path, body) => app.http(method, path, { body }),
      app.organizationId,
      other,
      (path, init) => fetch(`${app.url}${path}`, init),
    );
  });
});
