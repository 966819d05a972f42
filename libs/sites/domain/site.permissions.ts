import { atLeast, type Role } from '@app/platform/domain/roles';

/**
 * GitBook's site `permissions` from the caller's organization role: members view and access a site;
 * `create` manages its content structure; `admin` its settings, publication and adaptive schema.
 */
export function sitePermissions(role: Role) {
  const admin = role === 'admin';
  return {
    view: true,
    access: true,
    edit: atLeast(role, 'edit'),
    create: atLeast(role, 'create'),
    admin,
    installIntegration: admin,
    viewAdaptiveSchema: true,
    editAdaptiveSchema: admin,
  };
}
