import { USERS } from '@app/identity/read/identity.projection';
import { organizationAggregate } from '@app/organizations/domain/organization.aggregate';
import { EMAIL_INVITE } from '@app/organizations/domain/organization.decider';
import { CLOCK, type Clock } from '@app/platform/clock/clock';
import type { Role } from '@app/platform/domain/roles';
import type { RecordedEvent } from '@app/platform/eventstore/event-store.port';
import { JobHandler } from '@app/platform/jobs/job-handler';
import { JobPerEvent, unlessGone } from '@app/platform/jobs/job-per-event';
import { JOB_QUEUE, type JobLog, type JobQueue } from '@app/platform/jobs/job-queue.port';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  ADMIT_INVITED_ACCOUNT_JOB,
  ADMIT_INVITED_JOB,
  admitInvitedAccountJobId,
  admitInvitedJobId,
  type MemberInvitesEvent,
} from '../domain/member-invites.decider';
import { MEMBER_INVITES } from '../read/invite.projection';

export { EMAIL_INVITE };

/** What an email invite gives the user it admits: a role (null: a guest), and SSO membership if `sso`. */
interface EmailInvite {
  organization: string;
  role: Role | null;
  sso?: boolean;
}

/** The event a job was started from: what it appends is caused by it, in its correlation. */
interface Cause {
  eventId: string;
  correlationId: string;
}

/**
 * Jobs that admit a user to an organization by an email invite, whichever comes last: the invite
 * (`AdmitInvitedAccounts`) or the user (`AdmitInvitedUsers`). Both admit the same way, here: one
 * `AdmitMember` with the invite's role, `sso` making the member an SSO member in the same append; a
 * member already keeps their role, so a repeated job admits nobody twice; an organization gone
 * meanwhile has nobody to admit.
 */
abstract class AdmitByEmailInvite<D> extends JobPerEvent<D> {
  constructor(
    @Inject(JOB_QUEUE) jobs: JobQueue,
    @Inject(READ_STORE) protected readonly views: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly bus: CommandBus,
  ) {
    super(jobs);
  }

  protected admit(userId: string, { organization, role, sso }: EmailInvite, cause: Cause): Promise<void> {
    return unlessGone(
      this.bus.execute(
        organizationAggregate.message(
          organization,
          {
            type: 'AdmitMember',
            userId,
            role,
            invite: EMAIL_INVITE,
            ...(sso ? { sso: true } : {}),
            at: this.clock.now(),
          },
          { source: 'system', correlationId: cause.correlationId, causationId: cause.eventId },
        ),
      ),
    );
  }
}

interface AdmitInvitedData {
  userId: string;
  email: string;
  userEventId: string;
  correlationId: string;
}

/**
 * A user created with an email that organizations invited becomes a member of each, with the role the
 * invite gave: a job per user created, started from the log.
 */
@JobHandler()
@Injectable()
export class AdmitInvitedUsers extends AdmitByEmailInvite<AdmitInvitedData> {
  readonly job = ADMIT_INVITED_JOB;
  readonly name = 'admit-invited-users';
  readonly handles = ['UserCreated'] as const;

  protected dataOf(event: RecordedEvent): AdmitInvitedData {
    const { userId, email } = event.data as { userId: string; email: string };
    return { userId, email, userEventId: event.id, correlationId: event.metadata.correlationId };
  }

  protected jobId(eventId: string): string {
    return admitInvitedJobId(eventId);
  }

  protected async run({ userId, email, userEventId, correlationId }: AdmitInvitedData, log: JobLog) {
    const invites = await this.views.find(MEMBER_INVITES, {
      where: { email: email.toLowerCase() },
      limit: 1000,
    });
    for (const invite of invites.items)
      await this.admit(userId, invite, { eventId: userEventId, correlationId });
    if (invites.items.length > 0)
      log.info(`admitted ${userId} to ${invites.items.length} inviting organizations`);
  }
}

type InvitedData = MemberInvitesEvent['data'] & Cause;

/**
 * An email an organization invites whose account exists already: its user becomes a member with the
 * invite's role, by a job started from the log, so that the answer to the invitation says nothing of
 * which emails have accounts on this server (one a member already keeps their role).
 */
@JobHandler()
@Injectable()
export class AdmitInvitedAccounts extends AdmitByEmailInvite<InvitedData> {
  readonly job = ADMIT_INVITED_ACCOUNT_JOB;
  readonly name = 'admit-invited-accounts';
  readonly handles = ['MemberInvited'] as const;

  protected dataOf(event: RecordedEvent): InvitedData {
    const data = event.data as MemberInvitesEvent['data'];
    return { ...data, eventId: event.id, correlationId: event.metadata.correlationId };
  }

  protected jobId(eventId: string): string {
    return admitInvitedAccountJobId(eventId);
  }

  protected async run(invited: InvitedData, log: JobLog) {
    const user = (await this.views.find(USERS, { where: { email: invited.email }, limit: 1 })).items[0];
    if (!user) return;
    await this.admit(user.id, invited, invited);
    log.info(`admitted the account of an invited email to ${invited.organization}`);
  }
}
