import { Inject, Injectable, Optional } from '@nestjs/common';
import { CLOCK, type Clock } from '../clock/clock';
import { accessBelow, effectiveRole, resolveMembersLevel } from '../domain/content-access';
import { DomainError, notFound } from '../domain/decider';
import { atLeast, type DefaultLevel, ROLES, type Role } from '../domain/roles';
import { isOwnerCheck, isRouteScope, type OwnerCheck, type RouteScope } from '../feature/route-scope';
import { FAN_OUT_LIMIT } from '../projector/projection';
import { VIEW_CHANGES, type ViewChanges } from '../projector/view-changes';
import { type Doc, READ_STORE, type ReadStore } from '../readstore/read-store.port';
import { arg, Remote } from '../rpc/remote-method';
import { AccessCache } from './access-cache';
import {
  CONTENT_ACCESS,
  type ContentAccessDoc,
  MEMBERS,
  type MemberDoc,
  TEAM_MEMBERS,
  TOKENS,
  type TokenDoc,
} from './auth-views';
import { strongestGiven, widens } from './opening';

export { MEMBERS, type MemberDoc, TOKENS, type TokenDoc };

const GUESTS_REFUSED = 'Guests of the organization reach only the spaces and collections shared with them';

/** `role`, when it allows what `required` does; a 403 saying so otherwise. */
function allows(role: Role, required: Role, action: string): Role {
  if (!atLeast(role, required)) {
    throw new DomainError(
      'forbidden',
      `Your role (${role}) does not allow you to ${action}; it needs ${required}`,
    );
  }
  return role;
}

import { memberKey } from './member-key';

/** The authenticated caller of a request. */
export interface Viewer {
  userId: string;
  tokenId: string;
  correlationId: string;
  /**
   * The only organization the caller's token acts in (a SAML sign-in's token): elsewhere its user is
   * treated as a non-member. Absent for a token that acts wherever its user belongs.
   */
  organization?: string;
}

/** Whom a valid token stands for. */
export type Identity = Pick<Viewer, 'userId' | 'tokenId' | 'organization'>;

function identityOf(doc: TokenDoc | null, now: () => number): Identity | null {
  if (!doc || doc.revoked) return null;
  // A sign-in's token expires; ISO 8601 in UTC compares as text.
  if (doc.expiresAt !== undefined && doc.expiresAt <= new Date(now()).toISOString()) return null;
  return doc.organization === undefined
    ? { userId: doc.userId, tokenId: doc.tokenId }
    : { userId: doc.userId, tokenId: doc.tokenId, organization: doc.organization };
}

/** Whether the caller's token acts in `organization` (a sign-in's token acts in its own only). */
export const reaches = (viewer: Pick<Viewer, 'organization'>, organization: string) =>
  viewer.organization === undefined || viewer.organization === organization;

/**
 * Who may do what, answered from the read models. Resources of an organization the caller is not a
 * member of are reported as not found, so their existence does not leak.
 */
@Injectable()
export class Access {
  /** Every request reads its token and usually a membership: both stay in memory until they change. */
  private readonly cache: AccessCache;
  /** Spaces' and collections' access and users' teams, kept apart: they change with every space created. */
  private readonly contentCache: AccessCache;

  /** The application's clock when it has one: tokens expire by it. */
  private readonly now = () => this.clock?.now() ?? Date.now();

  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    @Optional() @Inject(VIEW_CHANGES) changes?: ViewChanges,
    @Optional() @Inject(CLOCK) private readonly clock?: Clock,
  ) {
    this.cache = new AccessCache(changes, [TOKENS, MEMBERS]);
    this.contentCache = new AccessCache(changes, [CONTENT_ACCESS, TEAM_MEMBERS]);
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
    return identityOf(doc, this.now);
  }

  /** What `authenticateHash` answers, without waiting, when the token is in memory; else undefined. */
  knownIdentity(hash: string): Identity | null | undefined {
    const doc = this.cache.peek<TokenDoc | null>(TOKENS, hash);
    return doc === undefined ? undefined : identityOf(doc, this.now);
  }

  /** The caller's membership of the organization (a guest's has a null role), or null. */
  async membership(organization: string, userId: string): Promise<MemberDoc | null> {
    const key = memberKey(organization, userId);
    return this.cache.lookup(MEMBERS, key, () => this.views.get(MEMBERS, key));
  }

  /** The user's role in the organization; null for a guest and for someone who is not a member. */
  async roleIn(organization: string, userId: string): Promise<Role | null> {
    return (await this.membership(organization, userId))?.role ?? null;
  }

  /** The caller's role in the organization (null for a guest), or a 404 naming `what` when not a member. */
  async memberOrGuest(organization: string, viewer: Viewer, what: string): Promise<Role | null> {
    const member = reaches(viewer, organization) ? await this.membership(organization, viewer.userId) : null;
    if (!member) throw notFound(`${what} not found`);
    return member.role;
  }

  /** The caller's role in the organization: a 404 naming `what` when not a member, a 403 for a guest. */
  async member(organization: string, viewer: Viewer, what: string): Promise<Role> {
    const role = await this.memberOrGuest(organization, viewer, what);
    if (!role) throw new DomainError('forbidden', GUESTS_REFUSED);
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
    return allows(await this.member(organization, viewer, what), required, action);
  }

  /** Ids of the teams of the organization the user is in. */
  async teamsOf(organization: string, userId: string): Promise<string[]> {
    return this.contentCache.lookup(TEAM_MEMBERS, memberKey(organization, userId), async () => {
      const page = await this.views.find(TEAM_MEMBERS, {
        where: { userId, organization },
        limit: FAN_OUT_LIMIT,
      });
      return page.items.map((membership) => membership.team);
    });
  }

  /** Who may do what on a space or collection; null when there is no such resource. */
  private contentAccess(resourceId: string): Promise<ContentAccessDoc | null> {
    return this.contentCache.lookup(CONTENT_ACCESS, resourceId, () =>
      this.views.get(CONTENT_ACCESS, resourceId),
    );
  }

  private async roleOn(access: ContentAccessDoc, userId: string): Promise<Role | null> {
    const member = await this.membership(access.organization, userId);
    if (!member) return null;
    return effectiveRole(member.role, access, userId, await this.teamsOf(access.organization, userId));
  }

  /**
   * The caller's effective role on a space or collection (`effectiveRole`) and its organization; a 404
   * naming `what` when it does not exist or the caller has no access to it, so its existence does not leak.
   */
  async content(
    resourceId: string,
    viewer: Viewer,
    what: string,
  ): Promise<{ organization: string; role: Role }> {
    const access = await this.contentAccess(resourceId);
    const role =
      access && reaches(viewer, access.organization) ? await this.roleOn(access, viewer.userId) : null;
    if (!access || !role) throw notFound(`${what} not found`);
    return { organization: access.organization, role };
  }

  /** The caller's effective role on each of these spaces or collections it has access to, by id. */
  async contentRoles(ids: readonly string[], viewer: Viewer): Promise<Map<string, Role>> {
    const roles = new Map<string, Role>();
    for (const id of ids) {
      const access = await this.contentAccess(id);
      const role =
        access && reaches(viewer, access.organization) ? await this.roleOn(access, viewer.userId) : null;
      if (role) roles.set(id, role);
    }
    return roles;
  }

  /** The effective role of any user on a space or collection (null: no access), for listings of who has access. */
  async roleOf(resourceId: string, userId: string): Promise<Role | null> {
    const access = await this.contentAccess(resourceId);
    return access ? this.roleOn(access, userId) : null;
  }

  /**
   * Checks the caller may set the default level of a space or collection to `level`: it gives every
   * member the level it resolves to (`inherit` taking the parent's), which is granting it to them, so
   * nobody but an organization admin sets one that gives more than their own effective role there (403).
   * Who may grant at all is the route's check. Keeping the level it has is always allowed.
   */
  async mayOpen(resourceId: string, level: DefaultLevel, viewer: Viewer, what: string): Promise<void> {
    const { organization, role } = await this.content(resourceId, viewer, what);
    const access = await this.contentAccess(resourceId);
    if (!access || access.defaultLevel === level || role === 'admin') return;
    if ((await this.roleIn(organization, viewer.userId)) === 'admin') return;
    const parent = access.parent ? await this.contentAccess(access.parent) : null;
    const given = strongestGiven(resolveMembersLevel(level, parent?.membersLevel));
    if (given && !atLeast(role, given)) {
      throw new DomainError(
        'forbidden',
        `Your role here (${role}) does not allow you to give every member ${given}`,
      );
    }
  }

  /**
   * Checks the caller may move a space or collection into `parent` (null: the top of its organization).
   * It then takes the access of its new place, so a move that opens it wider (`widens`) grants that
   * access: it needs `admin` there, of the collection or, at the top, of the organization (403).
   * A move that opens nothing needs no more than the caller's other checks.
   */
  async mayMove(resourceId: string, parent: string | null, viewer: Viewer, what: string): Promise<void> {
    const { organization } = await this.content(resourceId, viewer, what);
    const access = await this.contentAccess(resourceId);
    if (!access || access.parent === parent) return;
    if ((await this.roleIn(organization, viewer.userId)) === 'admin') return;
    const above = parent ? await this.contentAccess(parent) : null;
    if (parent && !above) return; // An unknown destination is the placement's 400.
    const after = accessBelow(above ?? undefined, { defaultLevel: access.defaultLevel, ...access.own });
    if (!widens(access, after)) return;
    const there = above ? await this.roleOn(above, viewer.userId) : null;
    if (there === 'admin') return;
    throw new DomainError(
      'forbidden',
      `The move would open the ${what.toLowerCase()} to more members or give some a stronger role: ` +
        `that needs admin where it lands (${parent ? 'of the collection' : 'of the organization'})`,
    );
  }

  /**
   * Checks the caller administers `organization` (its role there, not a grant on content): what content
   * leaves an organization for another needs (403; 404 when they are not a member).
   */
  async organizationAdmin(organization: string, viewer: Viewer, action: string): Promise<void> {
    const role = await this.memberOrGuest(organization, viewer, 'Organization');
    if (role !== 'admin') {
      throw new DomainError('forbidden', `Only an admin of the organization may ${action}`);
    }
  }

  /**
   * A route's authorization (`@RequiresRole`): the caller's role where `id` leads through `scope`, once
   * it is at least `required`. In an organization, that is their role there (a guest's is null: refused
   * with a 403 unless the route lets `guests` in); on a space or collection, their effective role. A 404
   * when the resource is missing or the caller is not a member (or has no access to the content), a 403
   * when the role is too low unless `owner` finds the caller owns what the route acts on.
   */
  @Remote(
    arg.shaped('scope', isRouteScope, 'a route scope'),
    arg.id('id'),
    arg.viewer(),
    arg.oneOf('required', ROLES),
    arg.optional(arg.shaped('owner', isOwnerCheck, 'an owner check')),
    arg.optional(arg.oneOf('guests', ['allowed'] as const)),
  )
  async authorize(
    scope: RouteScope,
    id: string,
    viewer: Viewer,
    required: Role,
    owner?: OwnerCheck,
    guests?: 'allowed',
  ): Promise<Role | null> {
    try {
      if (scope.kind === 'content') {
        return allows((await this.content(id, viewer, scope.what)).role, required, 'do this');
      }
      const organization =
        scope.kind === 'organization' ? id : (await this.views.get(scope.collection, id))?.organization;
      const what = scope.kind === 'organization' ? 'Organization' : scope.what;
      if (!organization) throw notFound(`${what} not found`);
      const role = await this.memberOrGuest(organization, viewer, what);
      if (role === null && guests === 'allowed') return null;
      return await this.require(organization, viewer, required, what, 'do this');
    } catch (error) {
      // A member whose role is too low may still own what the route acts on (`@OwnersMay`).
      if (!owner || !(error instanceof DomainError) || error.kind !== 'forbidden') throw error;
      const ownership = await this.views.get<Doc>(owner.collection, `${owner.id}:${viewer.userId}`);
      if (ownership?.role !== owner.role) throw error;
      return required;
    }
  }
}
