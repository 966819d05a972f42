/** Member roles, from least to most capable. */
export const ROLES = ['read', 'comment', 'edit', 'review', 'create', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** A default level is a role, `inherit`, or null (guest). */
export const DEFAULT_LEVELS = [...ROLES, 'inherit'] as const;
export type DefaultLevel = Role | 'inherit' | null;

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** True when `role` grants at least what `required` grants. */
export function atLeast(role: Role | null | undefined, required: Role): boolean {
  if (!role) return false;
  return ROLES.indexOf(role) >= ROLES.indexOf(required);
}
