import type { Role } from '../domain/roles';
import { collectionName, type Doc } from '../readstore/read-store.port';

/**
 * The two views every request reads, to authenticate and to authorize. The identity and organizations
 * features project them; they are declared here, free of Nest, because the platform's `Access` reads them.
 */
export interface TokenDoc extends Doc {
  tokenId: string;
  userId: string;
  revoked: boolean;
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
