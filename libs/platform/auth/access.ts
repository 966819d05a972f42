import { Inject, Injectable, Optional } from '@nestjs/common';
import { DomainError, notFound } from '../domain/decider';
import { atLeast, type Role } from '../domain/roles';
import { VIEW_CHANGES, type ViewChanges } from '../projector/view-changes';
import { type Doc, READ_STORE, type ReadStore } from '../readstore/read-store.port';
import { AccessCache } from './access-cache';
import { memberKey } from './member-key';

/** The authenticated caller of a request. */
export interface Viewer {
  userId: string;
  tokenId: string;
  correlationId: string;
}

/** Whom a valid token stands for. */
export type Identity = Pick<Viewer, 'userId' | 'tokenId'>;

export interface TokenDoc extends Doc {
  tokenId: string;
  userId: string;
  revoked: boolean;
}

function identityOf(doc: TokenDoc | null): Identity | null {
  return !doc || doc.revoked ? null : { userId: doc.userId, tokenId: doc.tokenId };
}

export interface MemberDoc extends Doc {
  organization: string;
  userId: string;
  role: Role;
  joinedAt: string;
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
    this.cache = new AccessCache(changes, ['tokens', 'members']);
  }

  /** Whom the token with this hash (`bearerHash`) stands for; null when unknown or revoked. */
  async authenticateHash(hash: string): Promise<Identity | null> {
    // Unknown tokens are not kept, so guessing cannot crowd out the tokens in use.
    const doc = await this.cache.lookup(
      'tokens',
      hash,
      () => this.views.get<TokenDoc>('tokens', hash),
      (found) => found !== null,
    );
    return identityOf(doc);
  }

  /** What `authenticateHash` answers, without waiting, when the token is in memory; else undefined. */
  knownIdentity(hash: string): Identity | null | undefined {
    const doc = this.cache.peek<TokenDoc | null>('tokens', hash);
    return doc === undefined ? undefined : identityOf(doc);
  }

  async roleIn(organization: string, userId: string): Promise<Role | null> {
    const key = memberKey(organization, userId);
    const member = await this.cache.lookup('members', key, () => this.views.get<MemberDoc>('members', key));
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

  /** A resource of `collection` (a read model carrying its organization), once `require` allows `action` on it. */
  async requireOn<T extends Doc & { organization: string }>(
    collection: string,
    id: string,
    viewer: Viewer,
    required: Role,
    what: string,
    action: string,
  ): Promise<T> {
    const doc = await this.views.get<T>(collection, id);
    if (!doc) throw notFound(`${what} not found`);
    await this.require(doc.organization, viewer, required, what, action);
    return doc;
  }
}
