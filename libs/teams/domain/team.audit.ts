import { auditSubjects } from '@app/platform/domain/audit-subject';
import type { TeamEvent } from './team.decider';

/** What each team event is about, for the audit log; a membership change is about the team. */
export const teamAuditSubjects = auditSubjects<TeamEvent>()({
  team: {
    TeamCreated: (d) => ({ type: 'team', id: d.teamId, organization: d.organization, label: d.title }),
    TeamRenamed: (d) => ({ type: 'team', id: d.teamId, organization: d.organization, label: d.title }),
    TeamDeleted: (d) => ({ type: 'team', id: d.teamId, organization: d.organization }),
    TeamMemberAdded: (d) => ({ type: 'team', id: d.teamId, organization: d.organization }),
    TeamMemberRoleChanged: (d) => ({ type: 'team', id: d.teamId, organization: d.organization }),
    TeamMemberRemoved: (d) => ({ type: 'team', id: d.teamId, organization: d.organization }),
  },
});
