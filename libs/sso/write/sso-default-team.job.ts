import { type OrganizationEvent, samlProviderOfInvite } from '@app/organizations/domain/organization.decider';
import { CLOCK, type Clock } from '@app/platform/clock/clock';
import type { RecordedEvent } from '@app/platform/eventstore/event-store.port';
import { JobHandler } from '@app/platform/jobs/job-handler';
import { JobPerEvent, unlessGone } from '@app/platform/jobs/job-per-event';
import { JOB_QUEUE, type JobLog, type JobQueue } from '@app/platform/jobs/job-queue.port';
import { CommandRunner } from '@app/platform/write/command-runner';
import { teamAggregate } from '@app/teams/domain/team.aggregate';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { samlProviderAggregate } from '../domain/saml-provider.aggregate';
import { SSO_DEFAULT_TEAM_JOB } from '../domain/saml-sign-in.decider';

interface DefaultTeamData {
  organization: string;
  userId: string;
  samlProviderId: string;
  eventId: string;
  correlationId: string;
}

type MemberAdded = Extract<OrganizationEvent, { type: 'MemberAdded' }>['data'];

/**
 * A member admitted by signing in with a SAML provider joins the provider's `defaultTeam`: a job per
 * admission, started from the log, so the team is joined even if the sign-in's process died right after
 * the admission. The provider's setting when the job runs applies; a team that is gone, or of another
 * organization, is skipped.
 */
@JobHandler()
@Injectable()
export class SsoDefaultTeam extends JobPerEvent<DefaultTeamData> {
  readonly job = SSO_DEFAULT_TEAM_JOB;
  readonly name = 'sso-default-team';
  readonly handles = ['MemberAdded'] as const;

  constructor(
    @Inject(JOB_QUEUE) jobs: JobQueue,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly runner: CommandRunner,
    private readonly bus: CommandBus,
  ) {
    super(jobs);
  }

  /** Only admissions through a provider have a team to join. */
  protected override wants(event: RecordedEvent): boolean {
    return samlProviderOfInvite((event.data as MemberAdded).invite) !== undefined;
  }

  protected dataOf(event: RecordedEvent): DefaultTeamData {
    const { organizationId, userId, invite } = event.data as MemberAdded;
    return {
      organization: organizationId,
      userId,
      samlProviderId: samlProviderOfInvite(invite) as string,
      eventId: event.id,
      correlationId: event.metadata.correlationId,
    };
  }

  protected jobId(eventId: string): string {
    return `sso-default-team-${eventId}`;
  }

  protected async run(data: DefaultTeamData, log: JobLog): Promise<void> {
    const { organization, userId, samlProviderId, eventId, correlationId } = data;
    // Read from the log: the provider's setting now, and whether its team is still one to join.
    const { state: provider } = await this.runner.current(samlProviderAggregate, samlProviderId);
    if (provider.status !== 'active' || !provider.defaultTeam) return;
    const { state: team } = await this.runner.current(teamAggregate, provider.defaultTeam);
    if (team.status !== 'active' || team.organization !== organization) return;
    await unlessGone(
      this.bus.execute(
        teamAggregate.message(
          provider.defaultTeam,
          { type: 'SetTeamMember', userId, at: this.clock.now() },
          { source: 'system', correlationId, causationId: eventId },
        ),
      ),
    );
    log.info(
      `added ${userId} to team ${provider.defaultTeam}, the default team of SAML provider ${samlProviderId}`,
    );
  }
}
