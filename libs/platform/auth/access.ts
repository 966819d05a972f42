import { Inject, Injectable, Optional } from '@nestjs/common';
import { DomainError, notFound } from '../domain/decider';
import { atLeast, ROLES, type Role } from '../domain/roles';
import { isOwnerCheck, isRouteScope, type OwnerCheck, type RouteScope } from '../feature/route-scope';
import { VIEW_CHANGES, type ViewChanges } from '../projector/view-changes';
import { type Doc, READ_STORE, type ReadStore } from '../readstore/read-store.port';
import { arg, Remote } from '../rpc/remote-method';
import { AccessCache } from './access-cache';
import { MEMBERS, type MemberDoc, TOKENS, type TokenDoc } from './auth-views';

export { MEMBERS, type MemberDoc, TOKENS, type TokenDoc };

import { memberKey } from './member-key';

/** The authenticated caller of a request. */
export interface Viewer {
  userId: string;
  tokenId: string;
  correlationId: string;
}

/** Whom a valid token stands for. */
export type Identity = Pick<Viewer, 'userId' | 'tokenId'>;

function identityOf(doc: TokenDoc | null): Identity | null {
  return !doc || doc.revoked ? null : { userId: doc.userId, tokenId: doc.tokenId };
}

/**
 * Who may do what, answered from the read models. Resources of an organization the caller is not a
 * member of are reported as not found, so their existence does not leak.
 */
@Injectable()
export class Access {
  /** Every request reads its token and usually a membership: both stay in memory until they change. */
  private readonly cache: AccessCache;

  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    @Optional() @Inject(VIEW_CHANGES) changes?: ViewChanges,
  ) {
    this.cache = new AccessCache(changes, [TOKENS, MEMBERS]);
  }

  /** Whom the token with this hash (`bearerHash`) stands for; null when unknown or revoked. */
  @Remote(arg.text('hash', /^[0-9a-f]{64}$/, 'a SHA-256 digest in lowercase hex'))
  async authenticateHash(hash: string): Promise<Identity | null> {
    // Unknown tokens are not kept, so guessing cannot crowd out the tokens in use.
    const doc = await this.cache.lookup(
      TOKENS,
      hash,
      () => this.views.get(TOKENS, hash),
      (found) => found !== null,
    );
    return identityOf(doc);
  }

  /** What `authenticateHash` answers, without waiting, when the token is in memory; else undefined. */
  knownIdentity(hash: string): Identity | null | undefined {
    const doc = this.cache.peek<TokenDoc | null>(TOKENS, hash);
    return doc === undefined ? undefined : identityOf(doc);
  }

  async roleIn(organization: string, userId: string): Promise<Role | null> {
    const key = memberKey(organization, userId);
    const member = await this.cache.lookup(MEMBERS, key, () => this.views.get(MEMBERS, key));
    return member?.role ?? null;
  }

  /** The caller's role in the organization, or a 404 naming `what` when they are not a member. */
  async member(organization: string, viewer: Viewer, what: string): Promise<Role> {
    const role = await this.roleIn(organization, viewer.userId);
    if (!role) throw notFound(`${what} not found`);
    return role;
  }

  /** As `member`, and a 403 when the role does not allow `action`. */
  async require(
    organization: string,
    viewer: Viewer,
    required: Role,
    what: string,
    action: string,
  ): Promise<Role> {
    const role = await this.member(organization, viewer, what);
    if (!atLeast(role, required)) {
      throw new DomainError(
        'forbidden',
        `Your role (${role}) does not allow you to ${action}; it needs ${required}`,
      );
    }
    return role;
  }

  /**
   * A route's authorization (`@RequiresRole`): the caller's role in the organization that `id` leads to
   * through `scope`, once it is at least `required`; 404 when the resource is missing or the caller is
   * not a member there, 403 when the role is too low unless `owner` finds the caller owns what the route
   * acts on (then it answers `required`).
   */
  @Remote(
    arg.shaped('scope', isRouteScope, 'a route scope'),
    arg.id('id'),
    arg.viewer(),
    arg.oneOf('required', ROLES),
    arg.optional(arg.shaped('owner', isOwnerCheck, 'an owner check')),
  )
  async authorize(
    scope: RouteScope,
    id: string,
    viewer: Viewer,
    required: Role,
    owner?: OwnerCheck,
  ): Promise<Role> {
    try {
      if (scope.kind === 'organization')
        return await this.require(id, viewer, required, 'Organization', 'do this');
      const doc = await this.views.get(scope.collection, id);
      if (!doc) throw notFound(`${scope.what} not found`);
      return await this.require(doc.organization, viewer, required, scope.what, 'do this');
    } catch (error) {
      // A member whose role is too low may still own what the route acts on (`@OwnersMay`).
      if (!owner || !(error instanceof DomainError) || error.kind !== 'forbidden') throw error;
      const ownership = await this.views.get<Doc>(owner.collection, `${owner.id}:${viewer.userId}`);
      if (ownership?.role !== owner.role) throw error;
      return required;
    }
  }
}
