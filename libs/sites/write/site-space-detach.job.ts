import { CLOCK, type Clock } from '@app/platform/clock/clock';
import type { RecordedEvent } from '@app/platform/eventstore/event-store.port';
import { JobHandler, type JobSource } from '@app/platform/jobs/job-handler';
import { JOB_QUEUE, type Job, type JobLog, type JobQueue } from '@app/platform/jobs/job-queue.port';
import type { Reaction } from '@app/platform/projector/reactor';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { siteAggregate } from '../domain/site.aggregate';
import type { DetachReason } from '../domain/site.decider';
import { DETACH_JOB } from '../domain/site-structure';
import { SITE_SPACES } from '../read/site-structure.projection';

interface DetachJobData {
  spaceId: string;
  reason: DetachReason;
  /** Where a transfer took the space: sites of that organization keep it. */
  organization?: string;
  eventId: string;
  correlationId: string;
}

/**
 * A space deleted or transferred to another organization leaves the sites that published it: each such
 * site records the removal of its site spaces in its own stream (`DetachSpace`), so its log says why they
 * went and its decider never names a space that is gone. A job per space event, keyed by the event.
 */
@JobHandler()
@Injectable()
export class SiteSpaceDetacher implements JobSource, Reaction {
  readonly jobNames = [DETACH_JOB];
  readonly name = 'site-space-detacher';
  readonly handles = ['SpaceDeleted', 'SpaceTransferred'] as const;

  constructor(
    @Inject(JOB_QUEUE) private readonly jobs: JobQueue,
    @Inject(READ_STORE) private readonly views: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly bus: CommandBus,
  ) {}

  register(): void {
    this.jobs.register<DetachJobData>(DETACH_JOB, (job, log) => this.detach(job, log));
  }

  async react(event: RecordedEvent): Promise<void> {
    const data = event.data as { spaceId: string; organization?: string };
    const transferred = event.type === 'SpaceTransferred';
    const job: DetachJobData = {
      spaceId: data.spaceId,
      reason: transferred ? 'space-transferred' : 'space-deleted',
      ...(transferred && data.organization ? { organization: data.organization } : {}),
      eventId: event.id,
      correlationId: event.metadata.correlationId,
    };
    await this.jobs.enqueue(DETACH_JOB, job, { jobId: `detach-${event.id}`, attempts: 8, backoffMs: 2_000 });
  }

  private async detach(job: Job<DetachJobData>, log: JobLog): Promise<void> {
    const { spaceId, reason, organization, eventId, correlationId } = job.data;
    const holding = await this.views.find(SITE_SPACES, { where: { spaceId }, orderBy: 'id', limit: 1000 });
    const sites = new Set(holding.items.filter((s) => s.organization !== organization).map((s) => s.siteId));
    for (const siteId of sites) {
      const result = await this.bus.execute(
        siteAggregate.message(
          siteId,
          { type: 'DetachSpace', spaceId, reason, at: this.clock.now() },
          { source: 'system', correlationId, causationId: eventId },
        ),
      );
      if (result.events.length > 0) log.info(`detached space ${spaceId} from site ${siteId}`);
    }
  }
}
