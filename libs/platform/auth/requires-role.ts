import { SetMetadata } from '@nestjs/common';
import type { Role } from '../domain/roles';
import type { OwnerGrant } from '../feature/route-scope';

export const REQUIRED_ROLE = 'required-role';

/**
 * The least member role a route needs, declared once: `AuthGuard` enforces it against the organization
 * the route's first scoped path parameter leads to (`ROUTE_SCOPES`: an organization id, or a resource
 * that carries its organization), before any pipe or handler runs. The API reference and the
 * authorization test matrix read the same declaration.
 */
export const RequiresRole = (role: Role) => SetMetadata(REQUIRED_ROLE, role);

export const OWNERS_MAY = 'owners-may';

/**
 * Lets the owners of the resource `grant.param` names use the route too, whatever their role in the
 * organization, as long as they are a member of it (a team's owners rename it and manage its members).
 */
export const OwnersMay = (grant: OwnerGrant) => SetMetadata(OWNERS_MAY, grant);

export const OPEN_TO_NON_MEMBERS = 'open-to-non-members';

/**
 * Lets a signed-in user who is not a member of the route's organization through the guard, for the
 * handler to decide (joining with an invite is how one becomes a member). Members still need the role.
 */
export const OpenToNonMembers = () => SetMetadata(OPEN_TO_NON_MEMBERS, true);

export const OPEN_TO_GUESTS = 'open-to-guests';

/**
 * Lets guests of the route's organization (members without a role there) through the guard on a route
 * scoped to the organization: the handler shows them only the content shared with them.
 */
export const OpenToGuests = () => SetMetadata(OPEN_TO_GUESTS, true);

export const SELF_MAY = 'self-may';

/**
 * Lets a member (or guest) use the route on themselves, whatever their role: when the path parameter
 * `param` is their own user id (leaving an organization).
 */
export const SelfMay = (param: string) => SetMetadata(SELF_MAY, param);
