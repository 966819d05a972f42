import {
  conflict,
  type Decider,
  type Decisions,
  decideBy,
  invalid,
  notFound,
} from '@app/platform/domain/decider';

export type UserState =
  | { status: 'none' }
  | {
      status: 'active';
      id: string;
      displayName: string;
      email: string;
      tokens: Record<string, { hash: string; revoked: boolean }>;
    };

export type UserEvent =
  | { type: 'UserCreated'; data: { userId: string; displayName: string; email: string; createdAt: string } }
  | {
      type: 'ApiTokenIssued';
      /** `expiresAt`: a token that stops working then (a sign-in's); none works until revoked. */
      data: {
        userId: string;
        tokenId: string;
        tokenHash: string;
        label: string;
        issuedAt: string;
        expiresAt?: string;
        /** The only organization the token acts in (a sign-in's token); none: every one of the user's. */
        organization?: string;
      };
    }
  | {
      type: 'ApiTokenRevoked';
      data: { userId: string; tokenId: string; tokenHash: string; revokedAt: string };
    };

export type UserCommand =
  | { type: 'CreateUser'; userId: string; displayName: string; email: string; at: number }
  | {
      type: 'IssueApiToken';
      tokenId: string;
      tokenHash: string;
      label: string;
      at: number;
      expiresAt?: number;
      organization?: string;
    }
  | { type: 'RevokeApiToken'; tokenId: string; at: number };

const EMAIL = /^[^\s@]+@[^\s@]+$/;
const iso = (ms: number) => new Date(ms).toISOString();

function live(state: UserState) {
  if (state.status !== 'active') throw notFound('User not found');
  return state;
}

/** What each command decides. */
const decisions: Decisions<UserCommand, UserEvent, UserState> = {
  CreateUser(command, state) {
    if (state.status !== 'none') throw conflict('User already exists');
    if (!command.displayName.trim()) throw invalid('displayName must not be empty');
    if (!EMAIL.test(command.email)) throw invalid('email must be an email address');
    return [
      {
        type: 'UserCreated',
        data: {
          userId: command.userId,
          displayName: command.displayName.trim(),
          email: command.email.toLowerCase(),
          createdAt: iso(command.at),
        },
      },
    ];
  },

  IssueApiToken(command, state) {
    const user = live(state);
    if (user.tokens[command.tokenId]) throw conflict('Token already exists');
    if (command.expiresAt !== undefined && command.expiresAt <= command.at)
      throw invalid('expiresAt must be after the token is issued');
    return [
      {
        type: 'ApiTokenIssued',
        data: {
          userId: user.id,
          tokenId: command.tokenId,
          tokenHash: command.tokenHash,
          label: command.label,
          issuedAt: iso(command.at),
          ...(command.expiresAt !== undefined ? { expiresAt: iso(command.expiresAt) } : {}),
          ...(command.organization !== undefined ? { organization: command.organization } : {}),
        },
      },
    ];
  },

  RevokeApiToken(command, state) {
    const user = live(state);
    const token = user.tokens[command.tokenId];
    if (!token) throw notFound('Token not found');
    if (token.revoked) return [];
    // The revocation names the hash it disables, so the token view needs no other lookup.
    return [
      {
        type: 'ApiTokenRevoked',
        data: {
          userId: user.id,
          tokenId: command.tokenId,
          tokenHash: token.hash,
          revokedAt: iso(command.at),
        },
      },
    ];
  },
};

export const userDecider: Decider<UserCommand, UserEvent, UserState> = {
  initialState: { status: 'none' },

  decide: decideBy(decisions),

  evolve(state, event) {
    switch (event.type) {
      case 'UserCreated':
        return {
          status: 'active',
          id: event.data.userId,
          displayName: event.data.displayName,
          email: event.data.email,
          tokens: {},
        };
      case 'ApiTokenIssued':
      case 'ApiTokenRevoked':
        if (state.status !== 'active') return state;
        return {
          ...state,
          tokens: {
            ...state.tokens,
            [event.data.tokenId]: { hash: event.data.tokenHash, revoked: event.type === 'ApiTokenRevoked' },
          },
        };
      default:
        return state;
    }
  },
};

export const userStream = (userId: string) => `user-${userId}`;
