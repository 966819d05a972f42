import { TOKENS } from '@app/platform/auth/auth-views';
import { documents, projection } from '@app/platform/projector/projection';
import { collectionName, type Doc } from '@app/platform/readstore/read-store.port';
import type { UserEvent } from '../domain/user.decider';

export interface UserDoc extends Doc {
  displayName: string;
  email: string;
  createdAt: string;
}

export const USERS = collectionName<UserDoc>('users');

/** Users, and API tokens keyed by their hash so that authentication is one lookup. */
export const identityProjection = projection<UserEvent>(
  'identity',
  [{ collection: TOKENS, fields: ['userId'] }],
  {
    UserCreated: documents(USERS).put((e) => ({
      id: e.data.userId,
      displayName: e.data.displayName,
      email: e.data.email,
      createdAt: e.data.createdAt,
    })),
    ApiTokenIssued: documents(TOKENS).put((e) => ({
      id: e.data.tokenHash,
      tokenId: e.data.tokenId,
      userId: e.data.userId,
      label: e.data.label,
      revoked: false,
      issuedAt: e.data.issuedAt,
      ...(e.data.expiresAt ? { expiresAt: e.data.expiresAt } : {}),
      ...(e.data.organization ? { organization: e.data.organization } : {}),
    })),
    ApiTokenRevoked: documents(TOKENS).update(
      (e) => e.data.tokenHash,
      (token) => ({ ...token, revoked: true }),
    ),
  },
  [USERS, TOKENS],
);
