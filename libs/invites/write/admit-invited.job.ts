import {
  EMAIL_INVITE,
  organizationDecider,
  organizationStream,
} from '@app/organizations/domain/organization.decider';
import { CLOCK, type Clock } from '@app/platform/clock/clock';
import { DomainError } from '@app/platform/domain/decider';
import type { RecordedEvent } from '@app/platform/eventstore/event-store.port';
import { JobHandler, type JobSource } from '@app/platform/jobs/job-handler';
import { JOB_QUEUE, type Job, type JobLog, type JobQueue } from '@app/platform/jobs/job-queue.port';
import type { Reaction } from '@app/platform/projector/reactor';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { CommandRunner } from '@app/platform/write/command-runner';
import { Inject, Injectable } from '@nestjs/common';
import { ADMIT_INVITED_JOB, admitInvitedJobId } from '../domain/member-invites.decider';
import { MEMBER_INVITES } from '../read/invite.projection';

interface AdmitInvitedData {
  userId: string;
  email: string;
  userEventId: string;
  correlationId: string;
}

export { EMAIL_INVITE };

/**
 * A user created with an email that organizations invited becomes a member of each, with the role the
 * invite gave: a job per user created, started from the log.
 */
@JobHandler()
@Injectable()
export class AdmitInvitedUsers implements JobSource, Reaction {
  readonly jobNames = [ADMIT_INVITED_JOB];
  readonly name = 'admit-invited-users';
  readonly handles = ['UserCreated'] as const;

  constructor(
    @Inject(JOB_QUEUE) private readonly jobs: JobQueue,
    @Inject(READ_STORE) private readonly views: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly runner: CommandRunner,
  ) {}

  register(): void {
    this.jobs.register<AdmitInvitedData>(ADMIT_INVITED_JOB, (job, log) => this.admit(job, log));
  }

  async react(event: RecordedEvent): Promise<void> {
    const { userId, email } = event.data as { userId: string; email: string };
    await this.jobs.enqueue<AdmitInvitedData>(
      ADMIT_INVITED_JOB,
      { userId, email, userEventId: event.id, correlationId: event.metadata.correlationId },
      { jobId: admitInvitedJobId(event.id), attempts: 8, backoffMs: 1_000 },
    );
  }

  private async admit(job: Job<AdmitInvitedData>, log: JobLog): Promise<void> {
    const { userId, email, userEventId, correlationId } = job.data;
    const invites = await this.views.find(MEMBER_INVITES, {
      where: { email: email.toLowerCase() },
      limit: 1000,
    });
    for (const invite of invites.items) {
      try {
        await this.runner.run(
          organizationDecider,
          organizationStream(invite.organization),
          { type: 'AdmitMember', userId, role: invite.role, invite: EMAIL_INVITE, at: this.clock.now() },
          { source: 'system', correlationId, causationId: userEventId },
        );
      } catch (error) {
        // An organization gone meanwhile has nobody to admit.
        if (!(error instanceof DomainError) || error.kind !== 'not_found') throw error;
      }
    }
    if (invites.items.length > 0)
      log.info(`admitted ${userId} to ${invites.items.length} inviting organizations`);
  }
}
