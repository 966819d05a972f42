import type { CollectionName } from '../readstore/read-store.port';

/**
 * How a path parameter leads to the organization whose membership authorizes a route: it is the
 * organization's id, or the id of a document (carrying `organization`) in a read-model collection.
 */
export type RouteScope =
  | { kind: 'organization' }
  | { kind: 'resource'; collection: CollectionName<{ id: string; organization: string }>; what: string };

export const organizationScope = (): RouteScope => ({ kind: 'organization' });

export const resourceScope = (
  collection: CollectionName<{ id: string; organization: string }>,
  what: string,
): RouteScope => ({ kind: 'resource', collection, what });

/** Whether `value` is a RouteScope and nothing more, as it arrives over the internal transport. */
export function isRouteScope(value: unknown): value is RouteScope {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const scope = value as Record<string, unknown>;
  const keys = Object.keys(scope).sort().join();
  if (scope.kind === 'organization') return keys === 'kind';
  return (
    scope.kind === 'resource' &&
    keys === 'collection,kind,what' &&
    typeof scope.collection === 'string' &&
    typeof scope.what === 'string'
  );
}
