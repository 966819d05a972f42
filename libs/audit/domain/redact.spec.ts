import { REDACTED, redact } from './redact';

describe('redact', () => {
  it('hides the token hash of an issued token and keeps the rest', () => {
    const data = {
      userId: 'u1',
      tokenId: 't1',
      tokenHash: 'ab'.repeat(32),
      label: 'ci',
      issuedAt: '2026-01-01T00:00:00.000Z',
    };
    expect(redact(data)).toEqual({ ...data, tokenHash: REDACTED });
  });

  it('hides the token hash of a revoked token', () => {
    expect(redact({ userId: 'u1', tokenId: 't1', tokenHash: 'cd', revokedAt: 'x' })).toEqual({
      userId: 'u1',
      tokenId: 't1',
      tokenHash: REDACTED,
      revokedAt: 'x',
    });
  });

  it.each(['token', 'secret', 'password', 'webhookSecret', 'refreshToken', 'apiKey', 'privateKey', 'hash'])(
    'hides a field named %s',
    (key) => {
      expect(redact({ [key]: 'value' })).toEqual({ [key]: REDACTED });
    },
  );

  it.each(['tokenId', 'tokens', 'title', 'secretary'])('keeps a field named %s', (key) => {
    expect(redact({ [key]: 'value' })).toEqual({ [key]: 'value' });
  });

  it('returns data without secrets as it is, and never changes what it is given', () => {
    const clean = { spaceId: 's1', changes: { title: 'T' }, tags: ['a'] };
    expect(redact(clean)).toBe(clean);
    const secret = { spaceId: 's1', nested: { apiKey: 'k' }, after: 1 };
    expect(redact(secret)).toEqual({ spaceId: 's1', nested: { apiKey: REDACTED }, after: 1 });
    expect(secret.nested.apiKey).toBe('k');
  });

  it('hides secrets in nested objects and arrays, even when the value is not a string', () => {
    expect(redact({ a: { b: [{ secret: { nested: 1 } }, { ok: true }] }, password: null })).toEqual({
      a: { b: [{ secret: REDACTED }, { ok: true }] },
      password: REDACTED,
    });
  });

  it('does not change its input', () => {
    const data = { tokenHash: 'x', inner: { secret: 'y' } };
    redact(data);
    expect(data).toEqual({ tokenHash: 'x', inner: { secret: 'y' } });
  });

  it('returns scalars as they are', () => {
    expect(redact('text')).toBe('text');
    expect(redact(3)).toBe(3);
    expect(redact(null)).toBeNull();
  });
});
