import type { JobLog, JobQueue } from './job-queue.port';

/** Defaults shared by the adapters, as documented on EnqueueOptions. */
export const DEFAULT_ATTEMPTS = 5;
export const DEFAULT_BACKOFF_MS = 1000;
export const DEFAULT_DRAIN_TIMEOUT_MS = 30_000;

export interface JobQueueLogger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

/** A handler's own lines, through the queue's logger, prefixed with the job. */
export function jobLog(logger: JobQueueLogger, name: string, id: string): JobLog {
  return { info: (message) => logger.info(`Job ${name}/${id}: ${message}`) };
}

/** Per job name, for metrics. Waiting includes jobs that are due but not yet picked up. */
export interface JobCounts {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

/** A queue that can tell how many jobs it holds, by job name. */
export interface CountingJobQueue extends JobQueue {
  counts(): Promise<Record<string, JobCounts>>;
}

/** Delay before the next attempt, after `failedAttempt` (1-based) failed. */
export function backoffDelay(backoffMs: number, failedAttempt: number): number {
  return backoffMs * 2 ** (failedAttempt - 1);
}

export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
