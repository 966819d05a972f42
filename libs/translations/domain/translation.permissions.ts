import type { Role } from '@app/platform/domain/roles';

/** Members see an organization's translation settings; its admins manage them. */
export function translationPermissions(role: Role) {
  return { view: true, edit: role === 'admin' };
}
