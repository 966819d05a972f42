import { CLOCK, type Clock } from '@app/platform/clock/clock';
import type { RecordedEvent } from '@app/platform/eventstore/event-store.port';
import { JobHandler, type JobSource } from '@app/platform/jobs/job-handler';
import { JOB_QUEUE, type Job, type JobLog, type JobQueue } from '@app/platform/jobs/job-queue.port';
import type { Reaction } from '@app/platform/projector/reactor';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { spaceAggregate } from '../domain/space.aggregate';
import { PURGE_JOB, purgeJobId } from '../domain/space-purge';
import { SPACES } from '../read/space.projection';

export { PURGE_JOB };

interface PurgeJobData {
  spaceId: string;
  deletedAt: string;
  purgeAfter: string;
  deletionEventId: string;
  correlationId: string;
}

/**
 * Purges deleted spaces when their 7 days are up: a job per deletion, scheduled from the log, plus a
 * periodic sweep over the views that re-enqueues any due purge a crash may have lost.
 */
@JobHandler()
@Injectable()
export class SpacePurges implements JobSource, Reaction {
  readonly jobNames = [PURGE_JOB];
  readonly name = 'space-purge-scheduler';
  readonly handles = ['SpaceDeleted'] as const;
  /** `sweep` re-enqueues every due purge, so past deletions need no replay. */
  readonly coveredBySweep = true;

  constructor(
    @Inject(JOB_QUEUE) private readonly jobs: JobQueue,
    @Inject(READ_STORE) private readonly views: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly bus: CommandBus,
  ) {}

  register(): void {
    this.jobs.register<PurgeJobData>(PURGE_JOB, (job, log) => this.purge(job, log));
  }

  async react(event: RecordedEvent): Promise<void> {
    const data = event.data as { spaceId: string; deletedAt: string; purgeAfter: string };
    await this.schedule({ ...data, deletionEventId: event.id, correlationId: event.metadata.correlationId });
  }

  /** Enqueues every purge that is due; returns how many. */
  async sweep(): Promise<number> {
    const now = this.clock.now();
    let enqueued = 0;
    let after: { value: string | number | boolean | null; id: string } | undefined;
    for (;;) {
      const page = await this.views.find(SPACES, {
        where: { deleted: true },
        orderBy: 'purgeAfter',
        after,
        limit: 500,
      });
      for (const space of page.items) {
        if (!space.purgeAfter || !space.deletedAt || !space.deletion) continue;
        if (Date.parse(space.purgeAfter) > now) return enqueued;
        await this.schedule({
          spaceId: space.id,
          deletedAt: space.deletedAt,
          purgeAfter: space.purgeAfter,
          deletionEventId: space.deletion.eventId,
          correlationId: space.deletion.correlationId,
        });
        enqueued += 1;
      }
      if (!page.next) return enqueued;
      after = page.next;
    }
  }

  private schedule(data: PurgeJobData): Promise<void> {
    return this.jobs.enqueue(PURGE_JOB, data, {
      jobId: purgeJobId(data.deletionEventId),
      runAt: Date.parse(data.purgeAfter),
      attempts: 8,
      backoffMs: 5_000,
    });
  }

  private async purge(job: Job<PurgeJobData>, log: JobLog): Promise<void> {
    const { spaceId, deletedAt, deletionEventId, correlationId } = job.data;
    const result = await this.bus.execute(
      spaceAggregate.message(
        spaceId,
        { type: 'PurgeSpace', deletedAt, at: this.clock.now() },
        { source: 'system', correlationId, causationId: deletionEventId },
      ),
    );
    if (result.events.length > 0) log.info(`purged space ${spaceId}`);
  }
}
