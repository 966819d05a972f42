import { TOKENS } from '@app/platform/auth/auth-views';
import { givenProjection, recorderOf } from '@app/platform/projector/projection.testing';
import { type UserEvent, userStream } from '../domain/user.decider';
import { identityProjection, USERS } from './identity.projection';

const recorded = recorderOf<UserEvent>();
const inStream = { stream: userStream('u1') };

const userCreated = () =>
  recorded(
    'UserCreated',
    {
      userId: 'u1',
      displayName: 'Ada Lovelace',
      email: 'ada@example.com',
      createdAt: '2026-01-01T00:00:00.000Z',
    },
    inStream,
  );
const tokenIssued = (tokenId: string, tokenHash: string) =>
  recorded(
    'ApiTokenIssued',
    { userId: 'u1', tokenId, tokenHash, label: `CLI ${tokenId}`, issuedAt: '2026-01-02T00:00:00.000Z' },
    inStream,
  );
const tokenRevoked = (tokenId: string, tokenHash: string) =>
  recorded(
    'ApiTokenRevoked',
    { userId: 'u1', tokenId, tokenHash, revokedAt: '2026-01-03T00:00:00.000Z' },
    inStream,
  );

const token = (tokenId: string, tokenHash: string, revoked: boolean) => ({
  id: tokenHash,
  tokenId,
  userId: 'u1',
  label: `CLI ${tokenId}`,
  revoked,
  issuedAt: '2026-01-02T00:00:00.000Z',
});

const identity = givenProjection(identityProjection);

describe('identity projection', () => {
  it('records a created user', async () => {
    await identity.given(userCreated()).thenDocuments(USERS, [
      {
        id: 'u1',
        displayName: 'Ada Lovelace',
        email: 'ada@example.com',
        createdAt: '2026-01-01T00:00:00.000Z',
      },
    ]);
  });

  it('keys an issued token by its hash, so that authentication is one lookup', async () => {
    await identity
      .given(userCreated(), tokenIssued('t1', 'hash1'), tokenIssued('t2', 'hash2'))
      .thenDocuments(TOKENS, [token('t1', 'hash1', false), token('t2', 'hash2', false)]);
  });

  it('marks a revoked token revoked and keeps the others', async () => {
    await identity
      .given(
        userCreated(),
        tokenIssued('t1', 'hash1'),
        tokenIssued('t2', 'hash2'),
        tokenRevoked('t1', 'hash1'),
      )
      .thenDocuments(TOKENS, [token('t1', 'hash1', true), token('t2', 'hash2', false)]);
  });

  it('ignores the revocation of a token it never saw issued', async () => {
    await identity.given(userCreated(), tokenRevoked('t9', 'hash9')).thenDocuments(TOKENS, []);
  });

  it('changes nothing when the events are replayed, and a rebuild gives the same views', async () => {
    const scenario = identity.given(
      userCreated(),
      tokenIssued('t1', 'hash1'),
      tokenIssued('t2', 'hash2'),
      tokenRevoked('t1', 'hash1'),
    );
    await scenario.thenReplayChangesNothing();
    await scenario.thenRebuildMatches();
  });
});
