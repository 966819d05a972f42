import { join } from 'node:path';
import { SqliteEventStore } from '@app/platform/eventstore/sqlite-event-store';
import { toBullJobId } from '@app/platform/jobs';
import { PURGE_JOB } from '@app/spaces/write/space-purge.job';
import { Queue } from 'bullmq';
import { Cluster, clusterEnv, gatewayRequest, type RunningService } from '../support/cluster-harness';
import { retryUntil } from '../support/process-harness';
import { RedisProcess } from '../support/redis-process';
import { removeDir, tempDir } from '../support/temp-dir';

/**
 * Redis holds the job queue and the shared rate-limit counts, nothing the API needs to answer: with it
 * gone the cluster keeps serving, and the purges that deletions schedule meanwhile are enqueued once it
 * is back, none lost, even by a worker that crashed with them waiting: its successor's reaction takes
 * the log up again from where the last enqueue that landed left it.
 */
describe('the cluster through a Redis outage', () => {
  let dataDir: string;
  let redis: RedisProcess;
  let cluster: Cluster;
  let gateway: RunningService;
  let worker: RunningService;
  let org: string;

  const http = (method: string, path: string, body?: unknown) =>
    gatewayRequest<{ id?: string; title?: string }>(gateway, method, path, body);

  /** Creates a space and deletes it: the deletion schedules its purge, a job 7 days out. */
  const createAndDelete = async (title: string): Promise<string> => {
    const created = await http('POST', `/v1/orgs/${org}/spaces`, { title });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await http('GET', `/v1/spaces/${id}`)).body.title).toBe(title);
    expect((await http('DELETE', `/v1/spaces/${id}`)).status).toBe(205);
    return id;
  };

  /** The purge job a space's deletion schedules, by the id of its `SpaceDeleted` event. */
  const purgeJobOf = async (spaceId: string): Promise<string> => {
    const events = new SqliteEventStore({ path: join(dataDir, 'events.sqlite') });
    try {
      const deletion = (await events.readStream(`space-${spaceId}`)).find((e) => e.type === 'SpaceDeleted');
      if (!deletion) throw new Error(`space ${spaceId} has no deletion in the log`);
      return toBullJobId(`purge-${deletion.id}`);
    } finally {
      await events.close();
    }
  };

  beforeAll(async () => {
    dataDir = tempDir('redis-outage-');
    // A Redis of this test's own, persistent as a production queue's would be, to stop and start again.
    redis = await RedisProcess.start();
    cluster = new Cluster(clusterEnv(dataDir, { REDIS_URL: redis.url, LOG_LEVEL: 'error' }));
    const [command, query] = await Promise.all([cluster.start('command'), cluster.start('query')]);
    [, worker] = await Promise.all([cluster.start('projector'), cluster.start('worker')]);
    gateway = await cluster.start('gateway', { COMMAND_URLS: command.url, QUERY_URLS: query.url });
    org = ((await http('GET', '/v1/orgs')).body as unknown as { items: { id: string }[] }).items[0].id;
  }, 60_000);

  afterAll(async () => {
    await cluster?.stopAll();
    await redis?.stop();
    if (dataDir) removeDir(dataDir);
  });

  it('reads and writes go on while Redis is down, and every purge is scheduled once it is back', async () => {
    const queue = new Queue(PURGE_JOB, { connection: { url: redis.url } });
    queue.on('error', () => undefined);
    try {
      const before = await createAndDelete('Before the outage');
      const scheduled = await purgeJobOf(before);
      await retryUntil(async () => expect(await queue.getJobState(scheduled)).toBe('delayed'));

      await redis.kill();
      const during: string[] = [];
      for (let i = 0; i < 5; i++) during.push(await createAndDelete(`During the outage ${i}`));
      const kept = await http('POST', `/v1/orgs/${org}/spaces`, { title: 'Kept' });
      expect(kept.status).toBe(201);
      expect((await http('PATCH', `/v1/spaces/${kept.body.id}`, { title: 'Renamed' })).status).toBe(200);
      expect((await http('GET', `/v1/spaces/${kept.body.id}`)).body.title).toBe('Renamed');
      expect((await http('GET', `/v1/orgs/${org}/spaces`)).status).toBe(200);

      // The worker holds the enqueues of those deletions, waiting for Redis: it crashes with them.
      await cluster.kill(worker);
      const successor = cluster.start('worker');
      await redis.restart();
      worker = await successor;
      const after = await createAndDelete('After the outage');
      // The job enqueued before is still there; those of the outage and after are enqueued now.
      for (const spaceId of [before, ...during, after]) {
        const job = await purgeJobOf(spaceId);
        await retryUntil(async () => expect(await queue.getJobState(job)).toBe('delayed'), {
          timeoutMs: 30_000,
        });
      }
      const counts = await queue.getJobCounts('delayed', 'waiting', 'active', 'failed');
      expect(counts).toEqual({ delayed: 7, waiting: 0, active: 0, failed: 0 });
    } finally {
      await queue.close();
    }
  }, 90_000);
});
