/*
 * B7: jobs through BullMQ on a local Redis, enqueue to done. Run by run.js as a child process:
 *
 *   node test/bench/jobs.js MODE --jobs N --redis URL --data DIR [--concurrency C]
 *
 * MODE baseline  BullMQ directly: a Queue and a Worker with an empty processor (concurrency C, default 1),
 *                jobs added with the options BullMqJobQueue uses (custom id, attempts, backoff, kept on
 *                completion).
 * MODE seed      writes DIR/events.sqlite for `purge`: N spaces created and deleted nine days ago (their
 *                7-day retention is over), through CommandRunner as the API would. A separate process, so
 *                that a CPU profile of `purge` shows the jobs alone.
 * MODE purge     the project's storage as the standalone server opens it (openStorage with DATA_DIR=DIR
 *                and REDIS_URL=URL): its BullMqJobQueue, configured as in production unless C is given,
 *                and its SqliteEventStore. SpacePurges registers the real `space.purge` handler and
 *                enqueues one job per SpaceDeleted event (its `react`, as the Reactor does); each job sends
 *                PurgeSpace on the CommandBus to the space aggregate's handler (as in the worker, built by
 *                Nest from the manifests), which runs CommandRunner: read the stream, decide, append one
 *                SpacePurged event (fsync'ed group commit). Checks that the log then holds N SpacePurged events, and reports
 *                the worker concurrency it ran with.
 *
 * Every mode empties the (private, benchmark-only) Redis database first.
 * Prints one line `RESULT {json}`: jobs, concurrency, ms (first enqueue to all done), enqueueMs, jobsPerSec,
 * verified.
 */
require('reflect-metadata');
const { randomUUID } = require('node:crypto');
const { join, resolve } = require('node:path');
const { performance } = require('node:perf_hooks');
const { parseArgs } = require('node:util');
const { Queue, Worker } = require('bullmq');
const { Redis } = require('ioredis');

const DIST = join(process.env.BENCH_DIST ?? resolve(__dirname, '../../dist'), 'libs');
const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    redis: { type: 'string' },
    jobs: { type: 'string' },
    concurrency: { type: 'string' },
    data: { type: 'string' },
  },
});
const mode = positionals[0];
const redisUrl = values.redis;
const JOBS = Number(values.jobs);
let CONCURRENCY = values.concurrency === undefined ? undefined : Number(values.concurrency);
const PREFIX = `bench-${mode}-${process.pid}`;
const DAY = 24 * 3600 * 1000;
const DAY_SECONDS = 24 * 3600;

const now = () => Number(process.hrtime.bigint()) / 1e6;

async function baseline() {
  const client = new Redis(redisUrl);
  const name = 'space.purge';
  const queue = new Queue(name, { connection: client, prefix: PREFIX });
  let done = 0;
  let finish;
  const allDone = new Promise((resolve) => {
    finish = resolve;
  });
  const worker = new Worker(name, async () => {}, {
    connection: { url: redisUrl, maxRetriesPerRequest: null },
    prefix: PREFIX,
    concurrency: CONCURRENCY ?? 1,
  });
  CONCURRENCY ??= 1;
  worker.on('completed', () => {
    done += 1;
    if (done === JOBS) finish();
  });
  await worker.waitUntilReady();
  const t0 = now();
  await Promise.all(
    Array.from({ length: JOBS }, (_, i) =>
      queue.add(
        name,
        {
          spaceId: `space${i}`,
          deletedAt: new Date(Date.now() - 9 * DAY).toISOString(),
          purgeAfter: new Date(Date.now() - 2 * DAY).toISOString(),
          deletionEventId: randomUUID(),
          correlationId: randomUUID(),
        },
        {
          jobId: `j_purge-${randomUUID()}`,
          delay: 0,
          attempts: 8,
          backoff: { type: 'exponential', delay: 5000 },
          removeOnComplete: { age: 7 * DAY_SECONDS, count: 10_000 },
          removeOnFail: { age: 30 * DAY_SECONDS },
        },
      ),
    ),
  );
  const enqueued = now();
  await allDone;
  const t1 = now();
  await worker.close();
  await queue.close();
  await client.quit();
  return { ms: t1 - t0, enqueueMs: enqueued - t0, verified: done === JOBS, completed: done };
}

function app() {
  return {
    ...require(`${DIST}/platform/eventstore/sqlite-event-store`),
    ...require(`${DIST}/platform/jobs/bullmq-job-queue`),
    ...require(`${DIST}/platform/write/command-runner`),
    ...require(`${DIST}/platform/clock/clock`),
    ...require(`${DIST}/spaces/write/space-purge.job`),
    ...require(`${DIST}/spaces/domain/space.decider`),
    ...require(`${DIST}/composition/storage`),
    ...require(`${DIST}/platform/config/config`),
    ...require(`${DIST}/platform/write/aggregates.module`),
    ...require(`${DIST}/composition/features`),
  };
}

/**
 * The CommandBus of a process that writes, with every aggregate's handler as the worker has them, over
 * `runner`; and how to close it.
 */
async function commandBus(runner) {
  const { Global, Module } = require('@nestjs/common');
  const { NestFactory } = require('@nestjs/core');
  const { CommandBus, CqrsModule } = require('@nestjs/cqrs');
  const { AggregatesModule, CommandRunner, FEATURES } = app();
  class Runner {}
  Global()(Runner);
  Module({ providers: [{ provide: CommandRunner, useValue: runner }], exports: [CommandRunner] })(Runner);
  class Writes {}
  Module({ imports: [CqrsModule.forRoot(), Runner, AggregatesModule.forRole('worker', FEATURES)] })(Writes);
  const context = await NestFactory.createApplicationContext(Writes, { logger: false });
  return { bus: context.get(CommandBus), close: () => context.close() };
}

/** The storage the standalone server would open on DIR with this Redis. */
async function projectStorage(clock) {
  const { openStorage, loadConfig } = app();
  return await openStorage(
    loadConfig({ DATA_DIR: values.data, REDIS_URL: redisUrl, LOG_LEVEL: 'warn' }),
    clock,
  );
}

async function flushRedis() {
  const client = new Redis(redisUrl);
  await client.flushdb();
  await client.quit();
}

async function seed() {
  const { SqliteEventStore, CommandRunner, SystemClock, spaceDecider, spaceStream } = app();
  const store = new SqliteEventStore({ path: join(values.data, 'events.sqlite') });
  const runner = new CommandRunner(store, new SystemClock());
  const ctx = { source: 'api', userId: 'benchuser', tokenId: 'benchtoken', causationId: null };
  const deletedAt = Date.now() - 9 * DAY;
  const ids = Array.from({ length: JOBS }, (_, i) => `benchspace${String(i).padStart(8, '0')}`);
  for (let i = 0; i < ids.length; i += 1000) {
    await Promise.all(
      ids.slice(i, i + 1000).map(async (spaceId) => {
        const c = { ...ctx, correlationId: randomUUID() };
        const create = {
          type: 'CreateSpace',
          spaceId,
          organization: 'benchorganization',
          parent: null,
          settings: { title: spaceId, emoji: '', editMode: 'live', defaultLevel: 'inherit' },
          revision: 'benchrevision',
          position: i + 1,
          at: deletedAt - DAY,
        };
        await runner.run(spaceDecider, spaceStream(spaceId), create, c);
        await runner.run(spaceDecider, spaceStream(spaceId), { type: 'DeleteSpace', at: deletedAt }, c);
      }),
    );
  }
  await store.close();
  return { ms: 0, enqueueMs: 0, verified: true, completed: JOBS };
}

async function countOf(store, type) {
  const found = [];
  for (let after = 0; ; ) {
    const batch = await store.readAll(after, 5000);
    if (batch.length === 0) return found;
    for (const e of batch) if (e.type === type) found.push(e);
    after = batch[batch.length - 1].position;
  }
}

async function purge() {
  const { BullMqJobQueue, CommandRunner, SystemClock, SpacePurges } = app();
  const clock = new SystemClock();
  const storage = await projectStorage(clock);
  const store = storage.events;
  let queue = storage.jobs;
  if (!(queue instanceof BullMqJobQueue)) throw new Error(`openStorage gave ${storage.describe}, not BullMQ`);
  if (CONCURRENCY !== undefined) {
    // A comparison at another concurrency: the same queue class, only that option changed.
    await queue.close();
    queue = new BullMqJobQueue({ ...queue.options, concurrency: CONCURRENCY });
  }
  CONCURRENCY = Math.max(1, queue.options?.concurrency ?? 1);
  const runner = new CommandRunner(store, clock);
  const deletions = await countOf(store, 'SpaceDeleted');
  if (deletions.length !== JOBS)
    throw new Error(`the store holds ${deletions.length} deletions, not ${JOBS}`);

  const writes = await commandBus(runner);
  const purges = new SpacePurges(queue, storage.views, clock, writes.bus);
  purges.register();
  await queue.start();

  const startedAtMs = performance.now();
  const t0 = now();
  await Promise.all(deletions.map((event) => purges.react(event)));
  const enqueued = now();
  await queue.drain(10 * 60_000);
  const t1 = now();

  const purged = (await countOf(store, 'SpacePurged')).length;
  await queue.close();
  await writes.close();
  await store.close();
  await storage.views.close();
  return { ms: t1 - t0, enqueueMs: enqueued - t0, verified: purged === JOBS, completed: purged, startedAtMs };
}

const modes = { baseline, seed, purge };
(mode === 'seed' ? Promise.resolve() : flushRedis())
  .then(() => modes[mode]())
  .then(
    (result) => {
      const out = {
        mode,
        jobs: JOBS,
        concurrency: CONCURRENCY,
        ...result,
        jobsPerSec: JOBS / (result.ms / 1000),
      };
      process.stdout.write(`RESULT ${JSON.stringify(out)}\n`);
      process.exit(0);
    },
    (error) => {
      process.stderr.write(`${error.stack}\n`);
      process.exit(1);
    },
  );
