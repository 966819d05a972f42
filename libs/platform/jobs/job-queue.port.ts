export interface Job<D = unknown> {
  id: string;
  name: string;
  data: D;
  /** 1 on the first run. */
  attempt: number;
}

/** Where a handler writes its own lines; the queue tags them with the job and, when observed, its cause. */
export interface JobLog {
  info(message: string): void;
}

export type JobHandler<D = unknown> = (job: Job<D>, log: JobLog) => Promise<void>;

export interface EnqueueOptions {
  /** Idempotency key: a job with the same id already queued, running or done is not added again. */
  jobId: string;
  /** Earliest time to run, in ms since the epoch by the queue's clock; now when absent. */
  runAt?: number;
  /** Total attempts before the job is recorded as failed (default 5). */
  attempts?: number;
  /** Base delay of the exponential backoff between attempts, in ms (default 1000). */
  backoffMs?: number;
}

export type JobState = 'waiting' | 'delayed' | 'active' | 'completed' | 'failed' | 'unknown';

export interface JobQueue {
  /** One handler per job name; registering a name twice throws. */
  register<D>(name: string, handler: JobHandler<D>): void;
  /**
   * Adds a job for whichever process runs its handler. A queue shared between processes (BullMQ) takes
   * jobs this process has no handler for; the in-process queue refuses them, as nothing would run them.
   */
  enqueue<D>(name: string, data: D, options: EnqueueOptions): Promise<void>;
  state(name: string, jobId: string): Promise<JobState>;
  /** Starts processing; handlers must be registered before. */
  start(): Promise<void>;
  /** Waits until no job is waiting or active (delayed jobs not yet due are ignored). For tests and CLI. */
  drain(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export const JOB_QUEUE = Symbol('JOB_QUEUE');
