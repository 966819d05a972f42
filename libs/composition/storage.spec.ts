import { ConfigError } from '@app/platform/config/config';
import { openBlobStore, openEventStore, openReadStore } from './storage';

// The clients parse connection strings when they are made, without connecting: nothing listens here.
describe('opening the configured servers', () => {
  it('takes the connection strings of clusters, several hosts included', async () => {
    const views = await openReadStore({
      dataDir: '/nowhere',
      mongoUrl: 'mongodb://h1:27017,h2:27018/docs?replicaSet=rs0',
    });
    await views.close();
    const blobs = await openBlobStore({
      dataDir: '/nowhere',
      mongoUrl: 'mongodb://h1:27017,h2:27018/docs?replicaSet=rs0',
    });
    await blobs.close();
    const events = await openEventStore({
      dataDir: '/nowhere',
      eventstoreUrl: 'esdb://a:2113,b:2113?tls=false',
    });
    await events.close();
  });

  it.each([
    ['MONGO_URL', () => openReadStore({ dataDir: '/nowhere', mongoUrl: 'mongodb://h1:notaport/docs' })],
    ['MONGO_URL', () => openBlobStore({ dataDir: '/nowhere', mongoUrl: 'mongodb://h1:notaport/docs' })],
    [
      'EVENTSTORE_URL',
      () => openEventStore({ dataDir: '/nowhere', eventstoreUrl: 'esdb://a:2113?tls=maybe' }),
    ],
  ])('names %s when its client refuses the string', async (variable, open) => {
    const opened = open();
    await expect(opened).rejects.toThrow(ConfigError);
    await expect(opened).rejects.toThrow(variable);
  });
});
