import type { Clock } from '../clock/clock';
import {
  backoffDelay,
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

export interface InProcessJobQueueOptions {
  clock: Clock;
  /** Upper bound on the wait between two checks for due delayed jobs (default 1000). */
  pollIntervalMs?: number;
  /** Jobs of one name running at the same time (default 1, as a BullMQ worker). */
  concurrency?: number;
  logger?: JobQueueLogger;
}

/** How many finished job ids each name remembers, so that a late duplicate is still ignored. */
const FINISHED_IDS_KEPT = 10_000;

interface PendingJob {
  id: string;
  data: unknown;
  /** Number of the next run, 1-based. */
  attempt: number;
  attempts: number;
  backoffMs: number;
  runAt: number;
}

type FinishedState = 'completed' | 'failed';

interface DrainWaiter {
  resolve(): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/** Jobs not yet due, by id and in a binary min-heap on (runAt, arrival), so that many of them stay cheap. */
class DelayedJobs {
  private readonly byId = new Map<string, PendingJob>();
  private readonly heap: { job: PendingJob; seq: number }[] = [];
  private seq = 0;

  get size(): number {
    return this.heap.length;
  }

  get(id: string): PendingJob | undefined {
    return this.byId.get(id);
  }

  /** When the earliest job is due; Infinity when there is none. */
  earliest(): number {
    return this.heap[0]?.job.runAt ?? Number.POSITIVE_INFINITY;
  }

  add(job: PendingJob): void {
    this.byId.set(job.id, job);
    const entry = { job, seq: this.seq++ };
    this.heap.push(entry);
    let i = this.heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!precedes(entry, this.heap[parent])) break;
      this.heap[i] = this.heap[parent];
      i = parent;
    }
    this.heap[i] = entry;
  }

  /** Removes and returns the jobs due at `now`, earliest first, ties in arrival order. */
  takeDue(now: number): PendingJob[] {
    const due: PendingJob[] = [];
    while (this.earliest() <= now) due.push(this.pop());
    return due;
  }

  private pop(): PendingJob {
    const top = this.heap[0];
    const last = this.heap.pop() as { job: PendingJob; seq: number };
    if (this.heap.length > 0) this.siftDown(last);
    this.byId.delete(top.job.id);
    return top.job;
  }

  private siftDown(entry: { job: PendingJob; seq: number }): void {
    const n = this.heap.length;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && precedes(this.heap[child + 1], this.heap[child])) child++;
      if (!precedes(this.heap[child], entry)) break;
      this.heap[i] = this.heap[child];
      i = child;
    }
    this.heap[i] = entry;
  }
}

function precedes(a: { job: PendingJob; seq: number }, b: { job: PendingJob; seq: number }): boolean {
  return a.job.runAt < b.job.runAt || (a.job.runAt === b.job.runAt && a.seq < b.seq);
}

/** The jobs of one name. Maps keep insertion order, so `ready` is a FIFO with O(1) lookup by id. */
class Lane {
  readonly ready = new Map<string, PendingJob>();
  readonly delayed = new DelayedJobs();
  readonly active = new Set<string>();
  readonly finished = new Map<string, FinishedState>();

  constructor(
    readonly name: string,
    readonly handler: JobHandler<unknown>,
  ) {}

  knows(id: string): boolean {
    return (
      this.ready.has(id) || this.delayed.get(id) !== undefined || this.active.has(id) || this.finished.has(id)
    );
  }

  schedule(job: PendingJob, now: number): void {
    if (job.runAt <= now) this.ready.set(job.id, job);
    else this.delayed.add(job);
  }

  /** Moves delayed jobs that are due to the end of the ready FIFO, earliest first. */
  promoteDue(now: number): void {
    for (const job of this.delayed.takeDue(now)) this.ready.set(job.id, job);
  }

  takeNext(): PendingJob | undefined {
    const next = this.ready.values().next();
    if (next.done) return undefined;
    this.ready.delete(next.value.id);
    return next.value;
  }

  finish(id: string, state: FinishedState): void {
    this.finished.set(id, state);
    if (this.finished.size > FINISHED_IDS_KEPT) {
      const oldest = this.finished.keys().next();
      if (!oldest.done) this.finished.delete(oldest.value);
    }
  }

  state(id: string, now: number): JobState {
    if (this.active.has(id)) return 'active';
    if (this.ready.has(id)) return 'waiting';
    const delayed = this.delayed.get(id);
    if (delayed) return delayed.runAt <= now ? 'waiting' : 'delayed';
    return this.finished.get(id) ?? 'unknown';
  }

  /** Whether a job is waiting or running; due delayed jobs are promoted first, as they wait too. */
  isBusy(now: number): boolean {
    this.promoteDue(now);
    return this.ready.size > 0 || this.active.size > 0;
  }

  counts(now: number): JobCounts {
    this.promoteDue(now);
    let failed = 0;
    for (const state of this.finished.values()) if (state === 'failed') failed++;
    return { waiting: this.ready.size, active: this.active.size, delayed: this.delayed.size, failed };
  }
}

/**
 * Job queue for standalone mode, running handlers in this process.
 * Jobs live in memory only: after a restart, standalone mode recovers pending work by replaying the
 * event log, so persisting jobs here would duplicate that.
 * Times are taken from the injected clock; a clock jump triggers a check, so tests moving a
 * ManualClock see delayed jobs and retries run at once.
 */
export class InProcessJobQueue implements CountingJobQueue {
  private readonly clock: Clock;
  private readonly pollIntervalMs: number;
  private readonly concurrency: number;
  private readonly logger: JobQueueLogger;
  private readonly lanes = new Map<string, Lane>();
  private readonly running = new Set<Promise<void>>();
  private readonly drainWaiters = new Set<DrainWaiter>();
  private timer: NodeJS.Timeout | undefined;
  private started = false;
  private closed = false;

  constructor(options: InProcessJobQueueOptions) {
    this.clock = options.clock;
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.concurrency = Math.max(1, options.concurrency ?? 1);
    this.logger = options.logger ?? console;
    this.clock.onJump(() => this.tick());
  }

  register<D>(name: string, handler: JobHandler<D>): void {
    if (this.lanes.has(name)) throw new Error(`A handler is already registered for job '${name}'`);
    if (this.started) throw new Error(`Cannot register job '${name}' after start()`);
    this.lanes.set(name, new Lane(name, handler as JobHandler<unknown>));
  }

  async enqueue<D>(name: string, data: D, options: EnqueueOptions): Promise<void> {
    if (this.closed) throw new Error(`Cannot enqueue job '${name}': the queue is closed`);
    const lane = this.lane(name);
    if (lane.knows(options.jobId)) return;
    const now = this.clock.now();
    lane.schedule(
      {
        id: options.jobId,
        data,
        attempt: 1,
        attempts: Math.max(1, options.attempts ?? DEFAULT_ATTEMPTS),
        backoffMs: options.backoffMs ?? DEFAULT_BACKOFF_MS,
        runAt: options.runAt ?? now,
      },
      now,
    );
    this.tick();
  }

  async state(name: string, jobId: string): Promise<JobState> {
    return this.lane(name).state(jobId, this.clock.now());
  }

  async start(): Promise<void> {
    if (this.closed) throw new Error('Cannot start a closed queue');
    this.started = true;
    this.tick();
  }

  drain(timeoutMs = DEFAULT_DRAIN_TIMEOUT_MS): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiter: DrainWaiter = {
        resolve,
        reject,
        timer: setTimeout(() => {
          this.drainWaiters.delete(waiter);
          reject(new Error(`Job queue not drained after ${timeoutMs} ms`));
        }, timeoutMs),
      };
      this.drainWaiters.add(waiter);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.clearTimer();
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
    this.settleDrainWaiters();
    for (const waiter of this.drainWaiters) {
      clearTimeout(waiter.timer);
      waiter.reject(new Error('Job queue closed before it was drained'));
    }
    this.drainWaiters.clear();
  }

  /** Jobs per name by state; failed counts the failures still remembered. */
  async counts(): Promise<Record<string, JobCounts>> {
    const now = this.clock.now();
    const result: Record<string, JobCounts> = {};
    for (const [name, lane] of this.lanes) result[name] = lane.counts(now);
    return result;
  }

  private lane(name: string): Lane {
    const lane = this.lanes.get(name);
    if (!lane) throw new Error(`No handler registered for job '${name}'`);
    return lane;
  }

  /** Starts whatever is due, re-arms the timer for the next delayed job and wakes drain() callers. */
  private tick(): void {
    if (this.started && !this.closed) {
      const now = this.clock.now();
      for (const lane of this.lanes.values()) this.pump(lane, now);
      this.armTimer(now);
    }
    this.settleDrainWaiters();
  }

  private pump(lane: Lane, now: number): void {
    lane.promoteDue(now);
    while (lane.active.size < this.concurrency) {
      const job = lane.takeNext();
      if (!job) return;
      this.launch(lane, job);
    }
  }

  private launch(lane: Lane, job: PendingJob): void {
    lane.active.add(job.id);
    const run: Promise<void> = this.execute(lane, job).finally(() => {
      this.running.delete(run);
      this.tick();
    });
    this.running.add(run);
  }

  private async execute(lane: Lane, job: PendingJob): Promise<void> {
    // Run the handler on a later microtask, never inside the caller of enqueue() or advance().
    await Promise.resolve();
    try {
      const log = jobLog(this.logger, lane.name, job.id);
      await lane.handler({ id: job.id, name: lane.name, data: job.data, attempt: job.attempt }, log);
      lane.active.delete(job.id);
      lane.finish(job.id, 'completed');
    } catch (error) {
      lane.active.delete(job.id);
      this.retryOrFail(lane, job, error);
    }
  }

  private retryOrFail(lane: Lane, job: PendingJob, error: unknown): void {
    const label = `Job ${lane.name}/${job.id} attempt ${job.attempt}/${job.attempts}`;
    if (job.attempt >= job.attempts) {
      lane.finish(job.id, 'failed');
      this.logger.error(`${label} failed, giving up: ${describeError(error)}`);
      return;
    }
    const delay = backoffDelay(job.backoffMs, job.attempt);
    this.logger.warn(`${label} failed, retrying in ${delay} ms: ${describeError(error)}`);
    const now = this.clock.now();
    lane.schedule({ ...job, attempt: job.attempt + 1, runAt: now + delay }, now);
  }

  /** Sleeps until the earliest delayed job is due, but at most pollIntervalMs in case the clock moves. */
  private armTimer(now: number): void {
    this.clearTimer();
    let earliest = Number.POSITIVE_INFINITY;
    for (const lane of this.lanes.values()) earliest = Math.min(earliest, lane.delayed.earliest());
    if (earliest === Number.POSITIVE_INFINITY) return;
    const wait = Math.min(Math.max(earliest - now, 0), this.pollIntervalMs);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.tick();
    }, wait);
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private isIdle(): boolean {
    const now = this.clock.now();
    for (const lane of this.lanes.values()) if (lane.isBusy(now)) return false;
    return true;
  }

  private settleDrainWaiters(): void {
    if (this.drainWaiters.size === 0 || !this.isIdle()) return;
    for (const waiter of this.drainWaiters) {
      clearTimeout(waiter.timer);
      waiter.resolve();
    }
    this.drainWaiters.clear();
  }
}
