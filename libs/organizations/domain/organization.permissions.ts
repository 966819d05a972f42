import { atLeast, type Role } from '@app/platform/domain/roles';

/** What a member with `role` may do with their organization; a guest (null) sees only what is shared. */
export function organizationPermissions(role: Role | null) {
  const admin = role === 'admin';
  const member = role !== null;
  return {
    view: member,
    access: member,
    admin,
    ownTeam: false,
    createContent: atLeast(role, 'create'),
    createOpenAPISpec: atLeast(role, 'create'),
    viewBilling: admin,
    listMembers: member,
    listTeams: member,
    listIntegrations: member,
    listInstallations: admin,
    installIntegration: admin,
  };
}
