/** The job that takes a member who left an organization out of its teams. */
export const LEAVE_TEAMS_JOB = 'member.leave-teams';

/** One per removal: a member removed, added back and removed again gets a new job. */
export const leaveTeamsJobId = (removalEventId: string) => `leave-teams-${removalEventId}`;
