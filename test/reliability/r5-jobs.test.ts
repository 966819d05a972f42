import { randomUUID } from 'node:crypto';
import { SystemClock } from '@app/platform/clock/clock';
import type { RecordedEvent } from '@app/platform/eventstore/event-store.port';
import {
  BullMqJobQueue,
  type CountingJobQueue,
  InProcessJobQueue,
  type JobQueueLogger,
  toBullJobId,
} from '@app/platform/jobs';
import { PURGE_JOB, SpacePurges } from '@app/spaces/write/space-purge.job';
import { Queue } from 'bullmq';
import { withTestApp } from '../support/app-harness';
import { recordingLogger } from '../support/recording-logger';
import { RedisProcess } from '../support/redis-process';

const DAY_MS = 24 * 60 * 60 * 1000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function until(
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not in ${timeoutMs} ms: ${what}`);
    await sleep(25);
  }
}

describe('R5 jobs under faults', () => {
  let redis: RedisProcess;
  const queues: CountingJobQueue[] = [];

  beforeAll(async () => {
    redis = await RedisProcess.start();
  });
  afterEach(async () => {
    await Promise.all(queues.splice(0).map((queue) => queue.close()));
  });
  afterAll(async () => {
    await redis.stop();
  });

  const bullQueue = (logger: JobQueueLogger) => {
    const queue = new BullMqJobQueue({
      redisUrl: redis.url,
      prefix: `r5-${randomUUID()}`,
      clock: new SystemClock(),
      logger,
    });
    queues.push(queue);
    return queue;
  };

  it('BullMQ: Redis killed and restarted mid-run, every queued job still runs, exactly once', async () => {
    const runs = new Map<string, number>();
    const lastRunAt = new Map<string, number>();
    const queue = bullQueue(recordingLogger());
    queue.register<{ spaceId: string }>('purge-like', async (job) => {
      runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
      lastRunAt.set(job.id, Date.now());
    });
    await queue.start();
    const t0 = Date.now();
    const ids = Array.from({ length: 10 }, (_, i) => `purge-${i}`);
    await Promise.all(
      ids.map((id, i) =>
        queue.enqueue(
          'purge-like',
          { spaceId: id },
          { jobId: id, runAt: t0 + 300 + 200 * i, backoffMs: 100 },
        ),
      ),
    );
    // Two have run; the others are delayed in Redis when it dies, some fall due while it is down.
    await until(async () => (await queue.state('purge-like', ids[1])) === 'completed', 5000, 'two jobs run');
    await redis.kill();
    const duringOutage = queue.enqueue('purge-like', { spaceId: 'late' }, { jobId: 'enqueued-while-down' });
    await sleep(1500);
    expect(runs.size).toBeLessThanOrEqual(3);
    await redis.restart();
    const restartedAt = Date.now();
    await duringOutage;

    const all = [...ids, 'enqueued-while-down'];
    const states = async () => Promise.all(all.map((id) => queue.state('purge-like', id)));
    await until(async () => (await states()).every((s) => s === 'completed'), 15_000, 'every job completed');
    // The jobs that fell due during the outage ran soon after Redis was back.
    expect(Math.max(...lastRunAt.values()) - restartedAt).toBeLessThan(3000);
    // The same causes again after the restart: the kept ids still deduplicate.
    await Promise.all(all.map((id) => queue.enqueue('purge-like', { spaceId: id }, { jobId: id })));
    await sleep(300);
    await queue.drain(5000);
    expect(Object.fromEntries(runs)).toEqual(Object.fromEntries(all.map((id) => [id, 1])));
    expect((await queue.counts())['purge-like']).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 0 });
  });

  describe.each([
    ['BullMQ', (logger: JobQueueLogger) => bullQueue(logger)],
    [
      'in-process',
      (logger: JobQueueLogger) => {
        const queue = new InProcessJobQueue({ clock: new SystemClock(), logger });
        queues.push(queue);
        return queue;
      },
    ],
  ])('%s: a failing job', (_label, create) => {
    it("retries with exponential backoff, then is recorded as 'failed'", async () => {
      const logs = recordingLogger();
      const queue = create(logs);
      const startedAt: number[] = [];
      queue.register('always-fails', async () => {
        startedAt.push(Date.now());
        throw new Error('downstream unavailable');
      });
      await queue.start();
      expect((await queue.counts())['always-fails'].failed).toBe(0);
      await queue.enqueue('always-fails', {}, { jobId: 'doomed', attempts: 4, backoffMs: 150 });
      await until(async () => (await queue.state('always-fails', 'doomed')) === 'failed', 10_000, 'failed');

      expect(startedAt).toHaveLength(4);
      const gaps = startedAt.slice(1).map((at, i) => at - startedAt[i]);
      [150, 300, 600].forEach((expected, i) => {
        expect(gaps[i]).toBeGreaterThanOrEqual(expected - 5);
        expect(gaps[i]).toBeLessThan(expected + 400);
      });
      expect((await queue.counts())['always-fails'].failed).toBe(1);
      await until(() => logs.errors.length === 1, 2000, 'the failure logged');
      expect(logs.errors[0]).toMatch(/doomed.*giving up/);
      expect(logs.warnings).toHaveLength(3);
      await sleep(200);
      expect(startedAt).toHaveLength(4);
    });
  });

  it('in-process: the same job id enqueued twice, together or after it ran, runs once', async () => {
    const queue = new InProcessJobQueue({ clock: new SystemClock(), logger: recordingLogger() });
    queues.push(queue);
    const runs: string[] = [];
    queue.register<string>('purge-like', async (job) => {
      runs.push(job.data);
    });
    await queue.start();
    await Promise.all([
      queue.enqueue('purge-like', 'first', { jobId: 'purge-1' }),
      queue.enqueue('purge-like', 'second', { jobId: 'purge-1' }),
    ]);
    await queue.drain(2000);
    await queue.enqueue('purge-like', 'third', { jobId: 'purge-1' });
    await queue.drain(2000);
    expect(runs).toEqual(['first']);
    expect(await queue.state('purge-like', 'purge-1')).toBe('completed');
  });

  it('standalone on BullMQ: a deletion scheduled again and again purges the space once', () =>
    withTestApp({ config: { redisUrl: redis.url } }, async (app) => {
      const promoter = new Queue(PURGE_JOB, { connection: { url: redis.url } });
      try {
        const created = await app.http('POST', `/v1/orgs/${app.organizationId}/spaces`, {
          body: { title: 'To be purged' },
        });
        const spaceId = (created.body as { id: string }).id;
        expect((await app.http('DELETE', `/v1/spaces/${spaceId}`)).status).toBe(205);
        const stream = `space-${spaceId}`;
        const deletion = (await app.built.storage.events.readStream(stream)).find(
          (e) => e.type === 'SpaceDeleted',
        ) as RecordedEvent;
        const jobId = `purge-${deletion.id}`;
        const jobs = app.built.storage.jobs;
        // The log reaction scheduled the purge, 7 days out.
        await until(async () => (await jobs.state(PURGE_JOB, jobId)) === 'delayed', 5000, 'purge scheduled');

        app.clock.advance(8 * DAY_MS);
        const purges = app.built.app.get(SpacePurges, { strict: false });
        // The purges' own sweep (the worker's sweep also enqueues other work, the PDF collection).
        const sweeps = await Promise.all([
          purges.react(deletion),
          purges.react(deletion),
          purges.sweep(),
          purges.sweep(),
        ]);
        expect(sweeps.slice(2)).toEqual([1, 1]);
        expect(await promoter.getJobCounts('delayed', 'waiting', 'active', 'completed')).toEqual({
          delayed: 1,
          waiting: 0,
          active: 0,
          completed: 0,
        });
        // BullMQ schedules by wall-clock time, which the test clock does not move: promote the job.
        await (await promoter.getJob(toBullJobId(jobId)))?.promote();
        await until(async () => (await jobs.state(PURGE_JOB, jobId)) === 'completed', 10_000, 'purged');

        // The same cause again after the purge: the job id is still known, nothing runs.
        await purges.react(deletion);
        await app.built.runtime.sweep();
        // Even a second job for the same deletion under another id changes nothing: the purge is a no-op.
        const data = deletion.data as { spaceId: string; deletedAt: string; purgeAfter: string };
        await jobs.enqueue(
          PURGE_JOB,
          { ...data, deletionEventId: deletion.id, correlationId: deletion.metadata.correlationId },
          { jobId: `${jobId}-again`, attempts: 1 },
        );
        await until(
          async () => (await jobs.state(PURGE_JOB, `${jobId}-again`)) === 'completed',
          10_000,
          'rerun',
        );
        await jobs.drain(5000);

        const types = (await app.built.storage.events.readStream(stream)).map((e) => e.type);
        expect(types).toEqual(['SpaceCreated', 'SpaceDeleted', 'SpacePurged']);
        expect((await promoter.getJobCounts('completed', 'failed')).failed).toBe(0);
      } finally {
        await promoter.close();
      }
    }));
});
