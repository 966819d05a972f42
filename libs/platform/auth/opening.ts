import type { MembersLevel } from '../domain/content-access';
import type { Role } from '../domain/roles';

/**
 * The strongest role a members level gives a member who does not administer the organization:
 * `organization` gives each their own role, at most `create` (organization admins are admin anyway).
 */
export function strongestGiven(level: MembersLevel): Role | null {
  return level === 'organization' ? 'create' : level;
}
