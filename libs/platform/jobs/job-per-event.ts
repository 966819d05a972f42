import { DomainError } from '../domain/decider';
import type { RecordedEvent } from '../eventstore/event-store.port';
import type { Reaction } from '../projector/reactor';
import type { JobSource } from './job-handler';
import type { JobLog, JobQueue } from './job-queue.port';

/**
 * Jobs started from the log, one per event of the types in `handles`: `react` enqueues the event's job,
 * its id derived from the event's so that replaying the log enqueues nothing twice, and retried with
 * backoff; `run` does it. A subclass names the job and says what it needs of the event.
 */
export abstract class JobPerEvent<D> implements JobSource, Reaction {
  abstract readonly job: string;
  abstract readonly name: string;
  abstract readonly handles: readonly string[];

  constructor(protected readonly jobs: JobQueue) {}

  get jobNames(): readonly string[] {
    return [this.job];
  }

  register(): void {
    this.jobs.register<D>(this.job, (job, log) => this.run(job.data, log));
  }

  async react(event: RecordedEvent): Promise<void> {
    if (!this.wants(event)) return;
    await this.jobs.enqueue<D>(this.job, this.dataOf(event), {
      jobId: this.jobId(event.id),
      attempts: 8,
      backoffMs: 1_000,
    });
  }

  /** Whether this event of a handled type starts a job: all of them unless a subclass narrows it. */
  protected wants(_event: RecordedEvent): boolean {
    return true;
  }

  /** What the job needs of its event (with the event's id and correlation, for what it appends). */
  protected abstract dataOf(event: RecordedEvent): D;
  protected abstract jobId(eventId: string): string;
  protected abstract run(data: D, log: JobLog): Promise<void>;
}

/** Awaits a command a job runs; a resource gone meanwhile (a 404) leaves the job nothing to do there. */
export async function unlessGone(command: Promise<unknown>): Promise<void> {
  try {
    await command;
  } catch (error) {
    if (!(error instanceof DomainError) || error.kind !== 'not_found') throw error;
  }
}
