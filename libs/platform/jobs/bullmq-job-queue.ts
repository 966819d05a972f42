import { type Job as BullJob, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { Clock } from '../clock/clock';
import {
  type CountingJobQueue,
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF_MS,
  DEFAULT_DRAIN_TIMEOUT_MS,
  describeError,
  type JobCounts,
  type JobQueueLogger,
  jobLog,
} from './job-queue.options';
import type { EnqueueOptions, JobHandler, JobState } from './job-queue.port';

export interface BullMqJobQueueOptions {
  redisUrl: string;
  /** Prefix of every Redis key (BullMQ's default is 'bull'). */
  prefix?: string;
  /** Turns `runAt` into a delay; BullMQ itself schedules by Redis and wall-clock time. */
  clock: Clock;
  /** Jobs of one name running at the same time in this process (default 1). */
  concurrency?: number;
  logger?: JobQueueLogger;
}

/** BullMQ takes ages in seconds. Finished jobs are kept so that their ids still deduplicate. */
const DAY_SECONDS = 24 * 60 * 60;
const COMPLETED_KEPT = { age: 7 * DAY_SECONDS, count: 10_000 };
const FAILED_KEPT = { age: 30 * DAY_SECONDS };
const DRAIN_POLL_MS = 25;
const WORKER_RECONNECT_MAX_MS = 2000;
/** BullMQ scores delayed jobs as `timestamp * 0x1000 + counter`, timestamps by wall-clock time. */
const DELAYED_SCORE_FACTOR = 0x1000;

function maxDueScore(): number {
  return (Date.now() + 1) * DELAYED_SCORE_FACTOR - 1;
}

/**
 * BullMQ rejects custom ids that contain ':' or are integers. The mapping escapes '%' and ':' and adds
 * a prefix, so it is reversible and two distinct ids never share a BullMQ id.
 */
export function toBullJobId(jobId: string): string {
  return `j_${jobId.replace(/%/g, '%25').replace(/:/g, '%3A')}`;
}

export function fromBullJobId(bullJobId: string): string {
  return bullJobId.slice(2).replace(/%3A/g, ':').replace(/%25/g, '%');
}

function toJobState(state: string): JobState {
  switch (state) {
    case 'waiting':
    case 'prioritized':
    case 'waiting-children':
      return 'waiting';
    case 'delayed':
    case 'active':
    case 'completed':
    case 'failed':
      return state;
    default:
      return 'unknown';
  }
}

/**
 * Job queue on Redis through BullMQ, for deployments with several processes.
 * One BullMQ queue and worker per job name, the queue named after the job.
 * BullMQ does the retries (exponential backoff) and ignores an id it still holds, which is why
 * finished jobs are kept for a while rather than removed.
 */
export class BullMqJobQueue implements CountingJobQueue {
  private readonly options: BullMqJobQueueOptions;
  private readonly logger: JobQueueLogger;
  /** Shared by the queues; it keeps the default retry limit so that enqueue fails when Redis is away. */
  private readonly client: Redis;
  private readonly handlers = new Map<string, JobHandler<unknown>>();
  private readonly queues = new Map<string, Queue>();
  private readonly workers: Worker[] = [];
  private started = false;
  private closing: Promise<void> | undefined;

  constructor(options: BullMqJobQueueOptions) {
    this.options = options;
    this.logger = options.logger ?? console;
    this.client = new Redis(options.redisUrl);
    // Connection errors are reported by the queues using this client.
    this.client.on('error', () => {});
  }

  register<D>(name: string, handler: JobHandler<D>): void {
    if (this.handlers.has(name)) throw new Error(`A handler is already registered for job '${name}'`);
    if (this.started) throw new Error(`Cannot register job '${name}' after start()`);
    this.handlers.set(name, handler as JobHandler<unknown>);
    this.queue(name);
  }

  async enqueue<D>(name: string, data: D, options: EnqueueOptions): Promise<void> {
    const now = this.options.clock.now();
    await this.queue(name).add(name, data, {
      jobId: toBullJobId(options.jobId),
      delay: Math.max(0, (options.runAt ?? now) - now),
      attempts: Math.max(1, options.attempts ?? DEFAULT_ATTEMPTS),
      backoff: { type: 'exponential', delay: options.backoffMs ?? DEFAULT_BACKOFF_MS },
      removeOnComplete: COMPLETED_KEPT,
      removeOnFail: FAILED_KEPT,
    });
  }

  async state(name: string, jobId: string): Promise<JobState> {
    const queue = this.queue(name);
    const bullJobId = toBullJobId(jobId);
    const state = toJobState(await queue.getJobState(bullJobId));
    if (state === 'delayed' && (await this.isDue(queue, bullJobId))) return 'waiting';
    return state;
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    for (const [name, handler] of this.handlers) this.workers.push(this.createWorker(name, handler));
    await Promise.all(this.workers.map((worker) => worker.waitUntilReady()));
  }

  async drain(timeoutMs = DEFAULT_DRAIN_TIMEOUT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ((await this.pendingCount()) > 0) {
      if (Date.now() >= deadline) throw new Error(`Job queue not drained after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, DRAIN_POLL_MS));
    }
  }

  /** Workers first, so that running jobs finish and nothing is fetched while the queues close. */
  close(): Promise<void> {
    this.closing ??= this.closeAll();
    return this.closing;
  }

  /** Jobs per name by state, as BullMQ holds them in Redis. */
  async counts(): Promise<Record<string, JobCounts>> {
    const entries = await Promise.all(
      [...this.queues].map(async ([name, queue]) => [name, await this.countsOf(queue)] as const),
    );
    return Object.fromEntries(entries);
  }

  /**
   * The queue of `name`, opened on first use: a process that runs no handler for a job (a query service
   * starting a PDF export) may still enqueue it, and ask its state, for the workers that do.
   */
  private queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.client, prefix: this.options.prefix });
      queue.on('error', (error) => this.logger.error(`Job queue '${name}': ${describeError(error)}`));
      this.queues.set(name, queue);
    }
    return queue;
  }

  private createWorker(name: string, handler: JobHandler<unknown>): Worker {
    const worker = new Worker(
      name,
      async (job: BullJob) => {
        const id = fromBullJobId(String(job.id));
        await handler(
          { id, name, data: job.data, attempt: job.attemptsMade + 1 },
          jobLog(this.logger, name, id),
        );
      },
      {
        // Workers own their connections (BullMQ adds a blocking one); they must wait out Redis outages.
        // BullMQ's own reconnection backs off to 20 s, which would leave due jobs waiting that long
        // after Redis is back; capped at 2 s as ioredis does by default.
        connection: {
          url: this.options.redisUrl,
          maxRetriesPerRequest: null,
          retryStrategy: (times: number) => Math.min(times * 200, WORKER_RECONNECT_MAX_MS),
        },
        prefix: this.options.prefix,
        concurrency: Math.max(1, this.options.concurrency ?? 1),
      },
    );
    worker.on('error', (error) => this.logger.error(`Job worker '${name}': ${describeError(error)}`));
    worker.on('failed', (job, error) => this.reportFailure(name, job, error));
    return worker;
  }

  private reportFailure(name: string, job: BullJob | undefined, error: Error): void {
    if (!job) return;
    const attempts = job.opts.attempts ?? 1;
    const label = `Job ${name}/${fromBullJobId(String(job.id))} attempt ${job.attemptsMade}/${attempts}`;
    if (job.attemptsMade >= attempts) this.logger.error(`${label} failed, giving up: ${error.message}`);
    else this.logger.warn(`${label} failed, retrying: ${error.message}`);
  }

  /** Delayed jobs already due that no worker has moved to waiting yet count as waiting, as in-process. */
  private async countsOf(queue: Queue): Promise<JobCounts> {
    const counts = await queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed');
    const due = await this.dueDelayedCount(queue);
    return {
      waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0) + due,
      active: counts.active ?? 0,
      delayed: (counts.delayed ?? 0) - due,
      failed: counts.failed ?? 0,
    };
  }

  private async pendingCount(): Promise<number> {
    const perQueue = await Promise.all([...this.queues.values()].map((queue) => this.countsOf(queue)));
    return perQueue.reduce((sum, counts) => sum + counts.waiting + counts.active, 0);
  }

  /** Read from BullMQ's delayed set, whose scores hold the due time. */
  private dueDelayedCount(queue: Queue): Promise<number> {
    return this.client.zcount(queue.keys.delayed, 0, maxDueScore());
  }

  private async isDue(queue: Queue, bullJobId: string): Promise<boolean> {
    const score = await this.client.zscore(queue.keys.delayed, bullJobId);
    return score !== null && Number(score) <= maxDueScore();
  }

  private async closeAll(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.close()));
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
    if (this.client.status !== 'end') await this.client.quit().catch(() => this.client.disconnect());
  }
}
