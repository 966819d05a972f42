import { spec } from '@app/platform/domain/decider.testing';
import { type UserCommand, type UserEvent, userDecider, userStream } from './user.decider';

const t0 = Date.parse('2026-01-01T00:00:00Z');
const t1 = t0 + 60_000;
const t2 = t1 + 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

const createUser = (displayName = 'Ada Lovelace', email = 'ada@example.com'): UserCommand => ({
  type: 'CreateUser',
  userId: 'user1',
  displayName,
  email,
  at: t0,
});

const userCreated: UserEvent = {
  type: 'UserCreated',
  data: { userId: 'user1', displayName: 'Ada Lovelace', email: 'ada@example.com', createdAt: iso(t0) },
};

const tokenIssued = (tokenId: string, tokenHash: string): UserEvent => ({
  type: 'ApiTokenIssued',
  data: { userId: 'user1', tokenId, tokenHash, label: `${tokenId} label`, issuedAt: iso(t1) },
});

const tokenRevoked = (tokenId: string, tokenHash: string, at = t2): UserEvent => ({
  type: 'ApiTokenRevoked',
  data: { userId: 'user1', tokenId, tokenHash, revokedAt: iso(at) },
});

const active = [userCreated];
const withToken = [userCreated, tokenIssued('tok1', 'hash1')];

const user = spec(userDecider);

describe('user decider', () => {
  it('names the stream after the user', () => {
    expect(userStream('user1')).toBe('user-user1');
  });

  describe('CreateUser', () => {
    it('creates a user', () => {
      const state = user.when(createUser()).thenEmits([userCreated]);
      expect(state).toStrictEqual({
        status: 'active',
        id: 'user1',
        displayName: 'Ada Lovelace',
        email: 'ada@example.com',
        tokens: {},
      });
    });

    it('trims the display name and lower-cases the email', () => {
      user.when(createUser('  Ada Lovelace  ', 'Ada@Example.COM')).thenEmits([userCreated]);
    });

    it.each(['', '   ', '\t\n'])('rejects the empty display name %j', (displayName) => {
      user.when(createUser(displayName)).thenThrows('invalid', /displayName/);
    });

    it.each([
      '',
      'ada',
      'ada@',
      '@example.com',
      'ada lovelace@example.com',
      'ada@exa mple.com',
      'ada@b@c',
      ' ada@example.com',
    ])('rejects the invalid email %j', (email) => {
      user.when(createUser('Ada Lovelace', email)).thenThrows('invalid', /email/);
    });

    it('rejects creating a user that already exists', () => {
      user
        .given(active)
        .when(createUser())
        .thenThrows('conflict', /already exists/);
    });
  });

  describe('IssueApiToken', () => {
    it('issues a token', () => {
      const state = user
        .given(active)
        .when({ type: 'IssueApiToken', tokenId: 'tok1', tokenHash: 'hash1', label: 'tok1 label', at: t1 })
        .thenEmits([tokenIssued('tok1', 'hash1')]);
      expect(state).toMatchObject({ tokens: { tok1: { hash: 'hash1', revoked: false } } });
    });

    it('issues a second token next to the first', () => {
      const state = user
        .given(withToken)
        .when({ type: 'IssueApiToken', tokenId: 'tok2', tokenHash: 'hash2', label: 'tok2 label', at: t1 })
        .thenEmits([tokenIssued('tok2', 'hash2')]);
      expect(state).toMatchObject({
        tokens: { tok1: { hash: 'hash1', revoked: false }, tok2: { hash: 'hash2', revoked: false } },
      });
    });

    it('rejects issuing a token with an id already in use', () => {
      user
        .given(withToken)
        .when({ type: 'IssueApiToken', tokenId: 'tok1', tokenHash: 'other', label: 'again', at: t2 })
        .thenThrows('conflict', /already exists/);
    });

    it('rejects reusing the id of a revoked token', () => {
      user
        .given([...withToken, tokenRevoked('tok1', 'hash1')])
        .when({ type: 'IssueApiToken', tokenId: 'tok1', tokenHash: 'other', label: 'again', at: t2 })
        .thenThrows('conflict', /already exists/);
    });

    it('issues a token that expires, and refuses one that would expire before it is issued', () => {
      const issue = (expiresAt: number) =>
        user.given(active).when({
          type: 'IssueApiToken',
          tokenId: 'tok1',
          tokenHash: 'hash1',
          label: 'l',
          at: t1,
          expiresAt,
        });
      issue(t2).thenEmits([
        {
          type: 'ApiTokenIssued',
          data: {
            userId: 'user1',
            tokenId: 'tok1',
            tokenHash: 'hash1',
            label: 'l',
            issuedAt: iso(t1),
            expiresAt: iso(t2),
          },
        },
      ]);
      issue(t1).thenThrows('invalid', /expiresAt/);
    });

    it('rejects issuing a token to a user that does not exist', () => {
      user
        .when({ type: 'IssueApiToken', tokenId: 'tok1', tokenHash: 'hash1', label: 'tok1 label', at: t1 })
        .thenThrows('not_found', /User/);
    });
  });

  describe('RevokeApiToken', () => {
    it('revokes a token, naming the hash it disables', () => {
      const state = user
        .given(withToken)
        .when({ type: 'RevokeApiToken', tokenId: 'tok1', at: t2 })
        .thenEmits([tokenRevoked('tok1', 'hash1')]);
      expect(state).toMatchObject({ tokens: { tok1: { hash: 'hash1', revoked: true } } });
    });

    it('leaves the other tokens alone', () => {
      const state = user
        .given([...withToken, tokenIssued('tok2', 'hash2')])
        .when({ type: 'RevokeApiToken', tokenId: 'tok2', at: t2 })
        .thenEmits([tokenRevoked('tok2', 'hash2')]);
      expect(state).toMatchObject({
        tokens: { tok1: { hash: 'hash1', revoked: false }, tok2: { hash: 'hash2', revoked: true } },
      });
    });

    it('emits nothing when the token is already revoked', () => {
      user
        .given([...withToken, tokenRevoked('tok1', 'hash1')])
        .when({ type: 'RevokeApiToken', tokenId: 'tok1', at: t2 + 1000 })
        .thenNothing();
    });

    it('rejects revoking an unknown token', () => {
      user
        .given(withToken)
        .when({ type: 'RevokeApiToken', tokenId: 'tok9', at: t2 })
        .thenThrows('not_found', /Token/);
    });

    it('rejects revoking a token of a user that does not exist', () => {
      user.when({ type: 'RevokeApiToken', tokenId: 'tok1', at: t2 }).thenThrows('not_found', /User/);
    });
  });
});
