import { generateKeyPairSync } from 'node:crypto';
import { newClaimsKeyPem, parseClaimsKeys, publicJwks, signClaims, verifyClaims } from './visitor-claims';

const now = Date.parse('2026-01-01T00:00:00Z');
const claims = { sub: 'u1', exp: now / 1000 + 3600 };

describe('visitor claims', () => {
  it('signs tokens that verify with the published key, and not with another', () => {
    const [key] = parseClaimsKeys(newClaimsKeyPem());
    const token = signClaims(key, claims);
    expect(verifyClaims(token, publicJwks([key]), now)).toEqual(claims);
    const [other] = parseClaimsKeys(newClaimsKeyPem());
    expect(verifyClaims(token, publicJwks([other]), now)).toBeNull();
    // The other key published under this key's id: the signature does not match.
    expect(verifyClaims(token, { keys: [{ ...other.publicJwk, kid: key.kid }] }, now)).toBeNull();
  });

  it('refuses a tampered or expired token', () => {
    const [key] = parseClaimsKeys(newClaimsKeyPem());
    const [header, , signature] = signClaims(key, claims).split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'u2' })).toString('base64url');
    expect(verifyClaims(`${header}.${forged}.${signature}`, publicJwks([key]), now)).toBeNull();
    expect(verifyClaims(signClaims(key, claims), publicJwks([key]), now + 3_600_000)).toBeNull();
  });

  it('rotates: the first key signs, and what the old one signed still verifies', () => {
    const oldPem = newClaimsKeyPem();
    const [old] = parseClaimsKeys(oldPem);
    const fromOld = signClaims(old, claims);
    const rotated = parseClaimsKeys(`${newClaimsKeyPem()}\n${oldPem}`);
    expect(rotated[1].kid).toBe(old.kid);
    const jwks = publicJwks(rotated);
    expect(verifyClaims(fromOld, jwks, now)).toEqual(claims);
    expect(verifyClaims(signClaims(rotated[0], claims), jwks, now)).toEqual(claims);
    expect(
      JSON.parse(Buffer.from(signClaims(rotated[0], claims).split('.')[0], 'base64url').toString()),
    ).toEqual({ alg: 'ES256', typ: 'JWT', kid: rotated[0].kid });
  });

  it('reads a JWKS of private keys and RSA keys, and publishes no private part', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = privateKey.export({ format: 'jwk' });
    const [key] = parseClaimsKeys(JSON.stringify({ keys: [jwk] }));
    expect(key.alg).toBe('RS256');
    expect(verifyClaims(signClaims(key, claims), publicJwks([key]), now)).toEqual(claims);
    expect(Object.keys(key.publicJwk).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
  });

  it('refuses what holds no usable key', () => {
    expect(() => parseClaimsKeys('nothing')).toThrow(/no private key/);
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    expect(() => parseClaimsKeys(privateKey.export({ format: 'pem', type: 'pkcs8' }).toString())).toThrow(
      /P-256/,
    );
    const pem = newClaimsKeyPem();
    expect(() => parseClaimsKeys(`${pem}${pem}`)).toThrow(/twice/);
    // One line, as a Compose `.env` holds it.
    expect(parseClaimsKeys(pem.replace(/\n/g, '\\n'))[0].kid).toBe(parseClaimsKeys(pem)[0].kid);
  });
});
