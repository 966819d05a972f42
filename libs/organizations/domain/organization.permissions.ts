import { atLeast, type Role } from '@app/platform/domain/roles';

/** What a member with `role` may do with their organization. */
export function organizationPermissions(role: Role) {
  const admin = role === 'admin';
  return {
    view: true,
    access: true,
    admin,
    ownTeam: false,
    createContent: atLeast(role, 'create'),
    createOpenAPISpec: atLeast(role, 'create'),
    viewBilling: admin,
    listMembers: true,
    listTeams: true,
    listIntegrations: true,
    listInstallations: admin,
    installIntegration: admin,
  };
}
