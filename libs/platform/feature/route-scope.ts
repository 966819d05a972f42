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
