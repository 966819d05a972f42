import type { CollectionName } from '../readstore/read-store.port';

/**
 * How a path parameter leads to the organization whose membership authorizes a route: it is the
 * organization's id, or the id of a document (carrying `organization`) in a read-model collection.
 */
export type RouteScope =
  | { kind: 'organization' }
  | { kind: 'resource'; collection: CollectionName<{ id: string; organization: string }>; what: string }
  /** A space or collection: the caller's effective role on it (`CONTENT_ACCESS`) authorizes the route. */
  | { kind: 'content'; what: string };

export const organizationScope = (): RouteScope => ({ kind: 'organization' });

export const resourceScope = (
  collection: CollectionName<{ id: string; organization: string }>,
  what: string,
): RouteScope => ({ kind: 'resource', collection, what });

export const contentScope = (what: string): RouteScope => ({ kind: 'content', what });

/** Whether `value` is a RouteScope and nothing more, as it arrives over the internal transport. */
export function isRouteScope(value: unknown): value is RouteScope {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const scope = value as Record<string, unknown>;
  const keys = Object.keys(scope).sort().join();
  if (scope.kind === 'organization') return keys === 'kind';
  if (scope.kind === 'content') return keys === 'kind,what' && typeof scope.what === 'string';
  return (
    scope.kind === 'resource' &&
    keys === 'collection,kind,what' &&
    typeof scope.collection === 'string' &&
    typeof scope.what === 'string'
  );
}

/**
 * Who, besides the route's role, may use a route: the owners of the resource a path parameter names, as a
 * document of `collection` keyed `<resource id>:<user id>` whose `role` is `role` records them (a team's
 * owners manage it). It widens a route only for members of the organization.
 */
export interface OwnerGrant {
  param: string;
  collection: CollectionName<{ id: string; role: string }>;
  role: string;
}

/** An owner grant resolved for one request: whose ownership document to look for. */
export interface OwnerCheck {
  collection: string;
  id: string;
  role: string;
}

/** Whether `value` is an OwnerCheck and nothing more, as it arrives over the internal transport. */
export function isOwnerCheck(value: unknown): value is OwnerCheck {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const check = value as Record<string, unknown>;
  return (
    Object.keys(check).sort().join() === 'collection,id,role' &&
    ['collection', 'id', 'role'].every((key) => typeof check[key] === 'string')
  );
}
