import type { TokenDoc } from '@app/platform/auth/access';
import { projection } from '@app/platform/projector/projection';
import type { Doc } from '@app/platform/readstore/read-store.port';

export interface UserDoc extends Doc {
  displayName: string;
  email: string;
  createdAt: string;
}

/** Users, and API tokens keyed by their hash so that authentication is one lookup. */
export const identityProjection = projection(
  'identity',
  [{ collection: 'tokens', fields: ['userId'] }],
  {
    UserCreated: async (e, ctx) => {
      await ctx.put('users', {
        id: e.data.userId,
        displayName: e.data.displayName,
        email: e.data.email,
        createdAt: e.data.createdAt,
      });
    },
    ApiTokenIssued: async (e, ctx) => {
      await ctx.put('tokens', {
        id: e.data.tokenHash,
        tokenId: e.data.tokenId,
        userId: e.data.userId,
        label: e.data.label,
        revoked: false,
        issuedAt: e.data.issuedAt,
      });
    },
    ApiTokenRevoked: async (e, ctx) => {
      const token = await ctx.get<TokenDoc>('tokens', e.data.tokenHash);
      if (token) await ctx.put('tokens', { ...token, revoked: true });
    },
  },
  ['users', 'tokens'],
);
