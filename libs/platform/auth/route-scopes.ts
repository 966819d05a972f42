import type { RouteScope } from '../feature/route-scope';

/** Every path parameter that scopes a route to an organization, from the feature manifests. */
export type RouteScopes = Readonly<Record<string, RouteScope>>;
export const ROUTE_SCOPES = Symbol('ROUTE_SCOPES');

/** The first of the route's path parameters (in path order) that has a scope, with its value. */
export function scopeOf(
  scopes: RouteScopes,
  params: Readonly<Record<string, string | undefined>> | undefined,
): { name: string; id: string; scope: RouteScope } | undefined {
  for (const [name, id] of Object.entries(params ?? {})) {
    const scope = scopes[name];
    if (scope && id !== undefined) return { name, id, scope };
  }
  return undefined;
}
