import type { ContentAccess, MembersLevel } from '../domain/content-access';
import { atLeast, type Role } from '../domain/roles';

/**
 * The strongest role a members level gives a member who does not administer the organization:
 * `organization` gives each their own role, at most `create` (organization admins are admin anyway).
 */
export function strongestGiven(level: MembersLevel): Role | null {
  return level === 'organization' ? 'create' : level;
}

/** Whether members level `after` gives some member a role that `before` did not give them. */
function levelWidens(before: MembersLevel, after: MembersLevel): boolean {
  if (after === null || before === after) return false;
  if (before === null) return true;
  // `organization` gives each member their own role: from `read` up to `create`.
  if (before === 'organization') return after !== 'read';
  if (after === 'organization') return !atLeast(before, 'create');
  return !atLeast(before, after);
}

function grantsWiden(before: Record<string, Role>, after: Record<string, Role>): boolean {
  return Object.entries(after).some(([id, role]) => !atLeast(before[id], role));
}

/**
 * Whether access `after` opens a resource wider than `before`: to more members, or with a stronger role
 * for some (a stronger members level, or a user or team granted more than they were).
 */
export function widens(before: ContentAccess, after: ContentAccess): boolean {
  return (
    levelWidens(before.membersLevel, after.membersLevel) ||
    grantsWiden(before.users, after.users) ||
    grantsWiden(before.teams, after.teams)
  );
}
