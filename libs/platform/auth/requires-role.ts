import { SetMetadata } from '@nestjs/common';
import type { Role } from '../domain/roles';

export const REQUIRED_ROLE = 'required-role';

/**
 * The least member role a route needs, declared once: `AuthGuard` enforces it against the organization
 * the route's first scoped path parameter leads to (`ROUTE_SCOPES`: an organization id, or a resource
 * that carries its organization), before any pipe or handler runs. The API reference and the
 * authorization test matrix read the same declaration.
 */
export const RequiresRole = (role: Role) => SetMetadata(REQUIRED_ROLE, role);
