import { SetMetadata } from '@nestjs/common';
import type { Role } from '../domain/roles';

export const REQUIRED_ROLE = 'required-role';

/**
 * The least member role a route needs. Services enforce it against the resource's organization; this
 * declaration makes it visible to the API reference and to the authorization test matrix, which checks
 * every route against it.
 */
export const RequiresRole = (role: Role) => SetMetadata(REQUIRED_ROLE, role);
