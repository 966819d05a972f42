import type { Role } from '@app/platform/domain/roles';
import type { TeamRole } from './team.decider';

/** Organization admins manage every team, a team's owners manage it; every member sees it. */
export function teamPermissions(orgRole: Role | null, teamRole: TeamRole | null) {
  return { admin: orgRole === 'admin' || teamRole === 'owner', view: true };
}
