import { addOrganization, removeDir, startTestApp, type TestApp } from '../support/app-harness';
import { endpointTour } from '../support/endpoint-tour';

describe('every endpoint, standalone', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
    removeDir(app.dataDir);
  });

  it('completes the endpoint tour', async () => {
    const other = await addOrganization(app, 'Tour target');
    await endpointTour(
      app.api(),
      (method, path, body) => app.http(method, path, { body }),
      app.organizationId,
      other,
    );
  });
});
