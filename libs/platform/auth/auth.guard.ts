import {
  type CanActivate,
  createParamDecorator,
  type ExecutionContext,
  HttpException,
  Inject,
  Injectable,
  SetMetadata,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError } from '../domain/decider';
import type { Role } from '../domain/roles';
import type { OwnerCheck, OwnerGrant } from '../feature/route-scope';
import { checkId } from '../http/ids.pipe';
import { Access, type Viewer } from './access';
import { bearerHash } from './bearer';
import { OPEN_TO_GUESTS, OPEN_TO_NON_MEMBERS, OWNERS_MAY, REQUIRED_ROLE, SELF_MAY } from './requires-role';
import { ROUTE_SCOPES, type RouteScopes, scopeOf } from './route-scopes';

const PUBLIC = 'public-route';
/** Marks a route that needs no token (health checks only). */
export const Public = () => SetMetadata(PUBLIC, true);

interface AuthedRequest {
  /** Fastify's request id: the correlation id (`correlationIdFrom`, the adapter's `genReqId`). */
  id: string;
  headers: Record<string, string | string[] | undefined>;
  params?: Record<string, string | undefined>;
  viewer?: Viewer;
}

/**
 * Every route needs a valid bearer token unless marked @Public(), and the role its `@RequiresRole`
 * declares in the organization its scoped path parameter leads to. The parameter's format is checked
 * first, as its pipe would, so a malformed id is still a 400 naming it.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly access: Access,
    private readonly reflector: Reflector,
    @Inject(ROUTE_SCOPES) private readonly scopes: RouteScopes,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC, [context.getHandler(), context.getClass()]))
      return true;
    const request = context.switchToHttp().getRequest<AuthedRequest>();
    const hash = bearerHash(request.headers);
    if (hash === null)
      throw new UnauthorizedException('Missing or malformed Authorization header; expected "Bearer <token>"');
    const identity = await this.access.authenticateHash(hash);
    if (!identity) throw new UnauthorizedException('Invalid or revoked API token');
    // The id the request's log lines and X-Request-Id response header carry.
    request.viewer = { ...identity, correlationId: request.id };
    const required = this.reflector.getAllAndOverride<Role | undefined>(REQUIRED_ROLE, [
      context.getHandler(),
      context.getClass(),
    ]);
    const scoped = required ? scopeOf(this.scopes, request.params) : undefined;
    if (required && scoped) {
      const id = checkId(scoped.name, scoped.id);
      try {
        await this.access.authorize(
          scoped.scope,
          id,
          request.viewer,
          required,
          this.ownerCheck(context, request),
          this.reflector.get<boolean>(OPEN_TO_GUESTS, context.getHandler()) ? 'allowed' : undefined,
        );
      } catch (error) {
        // Not a member (`@OpenToNonMembers`): the handler decides. A 404 comes back over the internal
        // transport as an HttpException.
        // A member acting on themselves (`@SelfMay`): their role does not matter.
        const self = this.reflector.get<string | undefined>(SELF_MAY, context.getHandler());
        const forbidden =
          (error instanceof DomainError && error.kind === 'forbidden') ||
          (error instanceof HttpException && error.getStatus() === 403);
        if (self && forbidden && request.params?.[self] === request.viewer.userId) return true;
        const open = this.reflector.get<boolean>(OPEN_TO_NON_MEMBERS, context.getHandler());
        const notFound =
          (error instanceof DomainError && error.kind === 'not_found') ||
          (error instanceof HttpException && error.getStatus() === 404);
        // A token that acts in one organization only (a sign-in's) is a non-member everywhere else, and
        // joins nothing there either.
        const actsHere =
          request.viewer.organization === undefined ||
          (scoped.scope.kind === 'organization' && request.viewer.organization === id);
        if (!open || !notFound || !actsHere) throw error;
      }
    }
    return true;
  }

  /** The ownership that lets a member use the route whatever their role (`@OwnersMay`), if it declares one. */
  private ownerCheck(context: ExecutionContext, request: AuthedRequest): OwnerCheck | undefined {
    const grant = this.reflector.get<OwnerGrant | undefined>(OWNERS_MAY, context.getHandler());
    const id = grant ? request.params?.[grant.param] : undefined;
    if (!grant || id === undefined) return undefined;
    return { collection: grant.collection, id: checkId(grant.param, id), role: grant.role };
  }
}

/** The authenticated caller, set by AuthGuard. */
export const CurrentViewer = createParamDecorator((_data: unknown, context: ExecutionContext): Viewer => {
  const viewer = context.switchToHttp().getRequest<AuthedRequest>().viewer;
  if (!viewer) throw new UnauthorizedException('Authentication required');
  return viewer;
});
