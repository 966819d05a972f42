import { organizationAggregate } from '@app/organizations/domain/organization.aggregate';
import { CLOCK, type Clock } from '@app/platform/clock/clock';
import type { RecordedEvent } from '@app/platform/eventstore/event-store.port';
import { JobHandler } from '@app/platform/jobs/job-handler';
import { JobPerEvent, unlessGone } from '@app/platform/jobs/job-per-event';
import { JOB_QUEUE, type JobLog, type JobQueue } from '@app/platform/jobs/job-queue.port';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { CommandRunner } from '@app/platform/write/command-runner';
import { teamAggregate } from '@app/teams/domain/team.aggregate';
import { TEAM_MEMBERS } from '@app/teams/read/team.projection';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';

import { LEAVE_TEAMS_JOB, leaveTeamsJobId } from '../domain/leave-teams';

interface LeaveTeamsData {
  organizationId: string;
  userId: string;
  removalEventId: string;
  correlationId: string;
}

/**
 * A member removed from an organization leaves each of its teams: a job per removal, started from the
 * log, that runs each team's own `RemoveTeamMember`, so the teams' streams (and their member counts)
 * say so too, not only a view. Removing someone not in a team changes nothing, so a repeated job has
 * one effect; a member added back before it runs keeps their teams.
 */
@JobHandler()
@Injectable()
export class MemberLeavesTeams extends JobPerEvent<LeaveTeamsData> {
  readonly job = LEAVE_TEAMS_JOB;
  readonly name = 'member-leaves-teams';
  readonly handles = ['MemberRemoved'] as const;

  constructor(
    @Inject(JOB_QUEUE) jobs: JobQueue,
    @Inject(READ_STORE) private readonly views: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly runner: CommandRunner,
    private readonly bus: CommandBus,
  ) {
    super(jobs);
  }

  protected dataOf(event: RecordedEvent): LeaveTeamsData {
    const { organizationId, userId } = event.data as { organizationId: string; userId: string };
    return { organizationId, userId, removalEventId: event.id, correlationId: event.metadata.correlationId };
  }

  protected jobId(eventId: string): string {
    return leaveTeamsJobId(eventId);
  }

  protected async run(
    { organizationId, userId, removalEventId, correlationId }: LeaveTeamsData,
    log: JobLog,
  ) {
    // From the log, not the views, which may not show the removal yet when the job runs.
    const { state } = await this.runner.current(organizationAggregate, organizationId);
    if (state.status === 'active' && userId in state.members) return;
    const teams = await this.views.find(TEAM_MEMBERS, {
      where: { userId, organization: organizationId },
      limit: 10_000,
    });
    for (const membership of teams.items) {
      // A team deleted meanwhile has no members to leave.
      await unlessGone(
        this.bus.execute(
          teamAggregate.message(
            membership.team,
            { type: 'RemoveTeamMember', userId, at: this.clock.now() },
            { source: 'system', correlationId, causationId: removalEventId },
          ),
        ),
      );
    }
    if (teams.items.length > 0) log.info(`removed ${userId} from ${teams.items.length} teams`);
  }
}
