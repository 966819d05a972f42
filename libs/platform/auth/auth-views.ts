import type { ContentAccess, Grants } from '../domain/content-access';
import type { DefaultLevel, Role } from '../domain/roles';
import { collectionName, type Doc } from '../readstore/read-store.port';

/**
 * The views every request reads, to authenticate and to authorize. The identity and organizations
 * features project them; they are declared here, free of Nest, because the platform's `Access` reads them.
 */
export interface TokenDoc extends Doc {
  tokenId: string;
  userId: string;
  revoked: boolean;
  /** When the token stops working (ISO 8601); absent for a token that works until revoked. */
  expiresAt?: string;
  /** The only organization the token acts in (a sign-in's); absent for one that acts in all its user's. */
  organization?: string;
}

export const TOKENS = collectionName<TokenDoc>('tokens');

export interface MemberDoc extends Doc {
  organization: string;
  userId: string;
  /** Null for a guest, who has no role in the organization itself. */
  role: Role | null;
  joinedAt: string;
}

export const MEMBERS = collectionName<MemberDoc>('members');

/** One user's membership of one team, keyed `<team>:<user>` (the teams feature projects it). */
export interface TeamMemberDoc extends Doc {
  team: string;
  organization: string;
  userId: string;
  role: 'owner' | 'member';
  addedAt: string;
}

export const TEAM_MEMBERS = collectionName<TeamMemberDoc>('team_members');

/**
 * Who may do what on one space or collection, kept resolved so that a request never walks the collection
 * tree: its own default level and grants, and (`ContentAccess`) those combined with everything above it.
 * The permissions feature projects it.
 */
export interface ContentAccessDoc extends Doc, ContentAccess {
  organization: string;
  kind: 'space' | 'collection';
  parent: string | null;
  defaultLevel: DefaultLevel;
  /** Grants made on this resource itself. */
  own: Grants;
}

export const CONTENT_ACCESS = collectionName<ContentAccessDoc>('content_access');

/**
 * One grant made on a space or collection, keyed `<resource>:<grantee>:<id>`, for the lists of who has one.
 * The permissions feature projects it; it is declared here because the teams feature reads it too (a team
 * counts the spaces granted to it) while permissions present teams: neither feature imports the other's views.
 */
export interface ContentGrantDoc extends Doc {
  resource: string;
  kind: 'space' | 'collection';
  organization: string;
  grantee: 'user' | 'team';
  granteeId: string;
  role: Role;
  grantedAt: string;
}

export const CONTENT_GRANTS = collectionName<ContentGrantDoc>('content_grants');
