import { hashSecret } from '../domain/ids';
import { bearerHash, bearerToken } from './bearer';

describe('bearer tokens of a request', () => {
  it('reads only a well-formed Bearer header', () => {
    expect(bearerToken({ authorization: 'Bearer abc' })).toBe('abc');
    expect(bearerToken({ authorization: 'bearer abc  ' })).toBe('abc');
    expect(bearerToken({ authorization: 'Basic abc' })).toBeUndefined();
    expect(bearerToken({ authorization: 'Bearer a b' })).toBeUndefined();
    expect(bearerToken({ authorization: ['Bearer abc'] })).toBeUndefined();
    expect(bearerToken({})).toBeUndefined();
  });

  it('hashes as tokens are stored, once per request', () => {
    const headers = { authorization: 'Bearer secret-token' };
    expect(bearerHash(headers)).toBe(hashSecret('secret-token'));
    // The same request's headers: the hash is not computed again, even if the header were changed.
    headers.authorization = 'Bearer other';
    expect(bearerHash(headers)).toBe(hashSecret('secret-token'));
    expect(bearerHash({ authorization: 'Bearer other' })).toBe(hashSecret('other'));
    expect(bearerHash({ authorization: 'Token x' })).toBeNull();
  });
});
