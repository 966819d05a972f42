import { atLeast, type DefaultLevel, type Role } from './roles';

/**
 * What every member of the organization (guests aside) gets on a space or collection by default, once
 * `inherit` is resolved up the collection tree: a role, their own organization role (`organization`,
 * what `inherit` at the top means), or nothing but what is granted (null).
 */
export type MembersLevel = Role | 'organization' | null;

/** Roles granted on a resource to users and teams, by id. */
export interface Grants {
  users: Record<string, Role>;
  teams: Record<string, Role>;
}

/** Who may do what on one space or collection: its members level and the grants it holds or inherits. */
export interface ContentAccess extends Grants {
  membersLevel: MembersLevel;
}

/** The stronger of two roles, null counting as none. */
export function stronger(a: Role | null | undefined, b: Role | null | undefined): Role | null {
  if (!a) return b ?? null;
  if (!b) return a;
  return atLeast(a, b) ? a : b;
}

/** A resource's members level from its own default level and its parent's (undefined at the top). */
export function resolveMembersLevel(own: DefaultLevel, parent: MembersLevel | undefined): MembersLevel {
  if (own !== 'inherit') return own;
  return parent === undefined ? 'organization' : parent;
}

/** Grants inherited from above combined with a resource's own: the stronger role per grantee. */
export function combineGrants(above: Grants | undefined, own: Grants): Grants {
  const merge = (a: Record<string, Role> = {}, b: Record<string, Role>) => {
    const out = { ...a };
    for (const [id, role] of Object.entries(b)) out[id] = stronger(out[id], role) as Role;
    return out;
  };
  return { users: merge(above?.users, own.users), teams: merge(above?.teams, own.teams) };
}

/** The access of a resource, from its own default level and grants and its parent's access (absent at the top). */
export function accessBelow(parent: ContentAccess | undefined, own: { defaultLevel: DefaultLevel } & Grants) {
  return {
    membersLevel: resolveMembersLevel(own.defaultLevel, parent?.membersLevel),
    ...combineGrants(parent, own),
  };
}

/**
 * A member's effective role on a resource: organization admins administer everything; other members
 * get the members level (their own role where it is `organization`), guests (no organization role)
 * nothing; on top of that, the strongest grant to them or to one of their teams. Null: no access.
 */
export function effectiveRole(
  organizationRole: Role | null,
  access: ContentAccess,
  userId: string,
  teams: readonly string[],
): Role | null {
  if (organizationRole === 'admin') return 'admin';
  let role: Role | null = null;
  if (organizationRole !== null && access.membersLevel !== null) {
    role = access.membersLevel === 'organization' ? organizationRole : access.membersLevel;
  }
  role = stronger(role, access.users[userId]);
  for (const team of teams) role = stronger(role, access.teams[team]);
  return role;
}
