import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BlobStore } from '@app/platform/blobs/blob-store.port';
import { FileBlobStore } from '@app/platform/blobs/file-blob-store';
import type { Clock } from '@app/platform/clock/clock';
import { type Config, ConfigError } from '@app/platform/config/config';
import type { EventStore } from '@app/platform/eventstore/event-store.port';
import type { EventWriter } from '@app/platform/eventstore/event-writer';
import { SqliteEventStore } from '@app/platform/eventstore/sqlite-event-store';
import { InProcessJobQueue } from '@app/platform/jobs/in-process-job-queue';
import type { JobQueue } from '@app/platform/jobs/job-queue.port';
import type { StorageThreadState } from '@app/platform/observability/readiness';
import type { ReadStore } from '@app/platform/readstore/read-store.port';
import { SqliteReadStore } from '@app/platform/readstore/sqlite-read-store';

/** Jobs of one name a BullMQ worker runs at once in this process. */
const JOB_CONCURRENCY = 64;

export interface Storage {
  events: EventStore;
  views: ReadStore;
  jobs: JobQueue;
  /** Uploaded files and rendered PDFs: kept beside the views' store, but not rebuilt from the log. */
  blobs: BlobStore;
  describe: string;
  /** The thread committing the embedded log and running the projector, when there is one (standalone). */
  thread?: StorageThreadState & { close(): Promise<void> };
}

/** Where the log and the views are kept; the rest of the configuration is not needed to open them. */
export type StorageConfig = Pick<Config, 'dataDir' | 'eventstoreUrl' | 'mongoUrl'>;

/*
 * The clients of servers (EventStoreDB, MongoDB, BullMQ) are loaded only when configured: together they
 * weigh ~45 MB of memory in each thread that loads them, the projector's thread included.
 */

/** The event store the configuration names: EventStoreDB when its URL is set, the embedded log otherwise. */
export async function openEventStore(config: StorageConfig, writer?: EventWriter): Promise<EventStore> {
  if (config.eventstoreUrl) {
    const { EventStoreDbEventStore } = await import('@app/platform/eventstore/esdb-event-store');
    const url = config.eventstoreUrl;
    return parsedBy('EVENTSTORE_URL', () => new EventStoreDbEventStore({ url }));
  }
  mkdirSync(config.dataDir, { recursive: true });
  return new SqliteEventStore({ path: join(config.dataDir, 'events.sqlite'), writer });
}

/** Opens a client, whose constructor parses the connection string: a string it refuses names the variable. */
function parsedBy<T>(variable: string, open: () => T): T {
  try {
    return open();
  } catch (error) {
    throw new ConfigError(variable, (error as Error).message);
  }
}

/** The read store the configuration names: MongoDB when its URL is set, embedded views otherwise. */
export async function openReadStore(
  config: StorageConfig,
  options: { checkpointedElsewhere?: boolean } = {},
): Promise<ReadStore> {
  if (config.mongoUrl) {
    const { MongoReadStore } = await import('@app/platform/readstore/mongo-read-store');
    const url = config.mongoUrl;
    return parsedBy('MONGO_URL', () => new MongoReadStore({ url }));
  }
  mkdirSync(config.dataDir, { recursive: true });
  return new SqliteReadStore({ path: join(config.dataDir, 'views.sqlite'), ...options });
}

/**
 * The blob store beside the views: a GridFS bucket (`blobs`) in MONGO_URL's database, whose services
 * share it, or files under DATA_DIR/blobs.
 */
export async function openBlobStore(config: StorageConfig): Promise<BlobStore> {
  if (config.mongoUrl) {
    const { MongoBlobStore } = await import('@app/platform/blobs/mongo-blob-store');
    const url = config.mongoUrl;
    return parsedBy('MONGO_URL', () => new MongoBlobStore({ url }));
  }
  return new FileBlobStore(join(config.dataDir, 'blobs'));
}

async function openJobQueue(config: Config, clock: Clock): Promise<JobQueue> {
  if (!config.redisUrl) return new InProcessJobQueue({ clock });
  const { BullMqJobQueue } = await import('@app/platform/jobs/bullmq-job-queue');
  // Jobs of one kind touch different streams (one space each), so a worker runs many at once and
  // their appends share group commits: 10,000 purges ran at ~4,200 jobs/s with 16, ~5,900 with 64.
  return new BullMqJobQueue({ redisUrl: config.redisUrl, clock, concurrency: JOB_CONCURRENCY });
}

/** Picks each adapter from the configuration: a server when its URL is set, embedded storage otherwise. */
export async function openStorage(
  config: Config,
  clock: Clock,
  options: { writer?: EventWriter } = {},
): Promise<Storage> {
  const events = await openEventStore(config, options.writer);
  // A writer of the log is the storage thread, which also commits (and checkpoints) the views.
  const views = await openReadStore(config, { checkpointedElsewhere: options.writer !== undefined });
  const jobs = await openJobQueue(config, clock);
  const blobs = await openBlobStore(config);
  const describe = [
    `events: ${config.eventstoreUrl ? 'EventStoreDB' : `embedded (${config.dataDir})`}`,
    `views: ${config.mongoUrl ? 'MongoDB' : 'embedded'}`,
    `jobs: ${config.redisUrl ? 'BullMQ on Redis' : 'in-process'}`,
    `blobs: ${config.mongoUrl ? 'MongoDB GridFS' : 'embedded'}`,
  ].join(', ');
  return { events, views, jobs, blobs, describe };
}

export async function closeStorage(storage: Storage): Promise<void> {
  await storage.jobs.close();
  await storage.events.close();
  await storage.views.close();
  await storage.blobs.close();
  await storage.thread?.close();
}
