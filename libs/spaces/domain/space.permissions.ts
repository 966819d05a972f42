import { atLeast, type Role } from '@app/platform/domain/roles';

/** What a member with `role` may do with a space. Managing a space needs `create`; deleting it, `admin`. */
export function spacePermissions(role: Role) {
  return {
    view: true,
    access: true,
    admin: atLeast(role, 'create'),
    viewInviteLinks: role === 'admin',
    edit: atLeast(role, 'edit'),
    triggerGitSync: atLeast(role, 'edit'),
    comment: atLeast(role, 'comment'),
    merge: atLeast(role, 'review'),
    review: atLeast(role, 'review'),
    installIntegration: role === 'admin',
  };
}
