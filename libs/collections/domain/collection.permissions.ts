import { atLeast, type Role } from '@app/platform/domain/roles';

export function collectionPermissions(role: Role) {
  return {
    view: true,
    admin: role === 'admin',
    viewInviteLinks: role === 'admin',
    create: atLeast(role, 'create'),
  };
}
