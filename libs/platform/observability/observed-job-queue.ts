import { performance } from 'node:perf_hooks';
import type pino from 'pino';
import { describeError, type JobCounts } from '../jobs/job-queue.options';
import type { EnqueueOptions, Job, JobHandler, JobQueue, JobState } from '../jobs/job-queue.port';
import { isCountingQueue, type Metrics } from './metrics';

/** The correlation id a job carries in its data (as the purge job does), else its own id. */
function correlationIdOf(job: Job): string {
  const carried = (job.data as { correlationId?: unknown } | null)?.correlationId;
  return typeof carried === 'string' && carried !== '' ? carried : job.id;
}

/**
 * Any JobQueue, giving each handler a log whose lines carry the job and the id of the request that
 * caused it, with a line per run and a count of failed runs.
 */
export class ObservedJobQueue implements JobQueue {
  constructor(
    private readonly inner: JobQueue,
    private readonly metrics: Metrics,
    private readonly logger: pino.Logger,
  ) {}

  register<D>(name: string, handler: JobHandler<D>): void {
    this.inner.register<D>(name, (job) => this.run(job, handler));
  }

  private async run<D>(job: Job<D>, handler: JobHandler<D>): Promise<void> {
    const log = this.logger.child({ job: job.name, jobId: job.id, correlationId: correlationIdOf(job) });
    const started = performance.now();
    try {
      await handler(job, log);
      log.info({ attempt: job.attempt, durationMs: elapsed(started) }, 'job completed');
    } catch (error) {
      this.metrics.jobFailed(job.name);
      log.warn(
        { attempt: job.attempt, durationMs: elapsed(started), error: describeError(error) },
        'job failed',
      );
      throw error;
    }
  }

  enqueue<D>(name: string, data: D, options: EnqueueOptions): Promise<void> {
    return this.inner.enqueue(name, data, options);
  }

  state(name: string, jobId: string): Promise<JobState> {
    return this.inner.state(name, jobId);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  drain(timeoutMs?: number): Promise<void> {
    return this.inner.drain(timeoutMs);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** Jobs per name by state, when the adapter can count them (every adapter here can). */
  async counts(): Promise<Record<string, JobCounts>> {
    return isCountingQueue(this.inner) ? this.inner.counts() : {};
  }
}

function elapsed(since: number): number {
  return Math.round((performance.now() - since) * 10) / 10;
}
