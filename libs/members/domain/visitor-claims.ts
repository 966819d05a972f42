import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type JsonWebKey,
  type KeyObject,
  sign,
  verify,
} from 'node:crypto';

/** One signing key: its id (the RFC 7638 thumbprint of its public JWK), algorithm and both halves. */
export interface ClaimsKey {
  kid: string;
  alg: 'ES256' | 'RS256';
  privateKey: KeyObject;
  publicJwk: JsonWebKey;
}

const PEM_BLOCK = /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]+?-----END [A-Z ]*PRIVATE KEY-----/g;

const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

function thumbprint(jwk: JsonWebKey): string {
  const members =
    jwk.kty === 'EC'
      ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }
      : { e: jwk.e, kty: jwk.kty, n: jwk.n };
  return b64url(createHash('sha256').update(JSON.stringify(members)).digest());
}

function claimsKey(privateKey: KeyObject): ClaimsKey {
  const publicJwk = createPublicKey(privateKey).export({ format: 'jwk' });
  let alg: ClaimsKey['alg'];
  if (privateKey.asymmetricKeyType === 'ec' && publicJwk.crv === 'P-256') alg = 'ES256';
  else if (
    privateKey.asymmetricKeyType === 'rsa' &&
    (privateKey.asymmetricKeyDetails?.modulusLength ?? 0) >= 2048
  )
    alg = 'RS256';
  else throw new Error('a visitor claims key must be an EC P-256 key or an RSA key of 2048 bits or more');
  const kid = thumbprint(publicJwk);
  return { kid, alg, privateKey, publicJwk: { ...publicJwk, kid, alg, use: 'sig' } };
}

/**
 * The keys of `VISITOR_CLAIMS_KEYS`: PEM private keys one after the other, or a JWKS (`{"keys": [...]}`)
 * of private JWKs (line breaks may be written `\n`). The first signs; the others are still published, so what they signed still verifies
 * while a rotation is under way. Throws, saying why, on anything else.
 */
export function parseClaimsKeys(raw: string): ClaimsKey[] {
  // A PEM in a one-line variable (a Compose `.env`) has its line breaks written `\n`.
  const text = raw.trim().replace(/\\n/g, '\n');
  let keys: KeyObject[];
  if (text.startsWith('{')) {
    const parsed = JSON.parse(text) as { keys?: unknown };
    if (!Array.isArray(parsed.keys)) throw new Error('a JWKS must have a keys array');
    keys = parsed.keys.map((jwk) => createPrivateKey({ key: jwk as JsonWebKey, format: 'jwk' }));
  } else {
    keys = (text.match(PEM_BLOCK) ?? []).map((pem) => createPrivateKey(pem));
  }
  if (keys.length === 0) throw new Error('no private key found (PEM blocks or a JWKS of private keys)');
  const parsed = keys.map(claimsKey);
  if (new Set(parsed.map((k) => k.kid)).size !== parsed.length) throw new Error('a key is listed twice');
  return parsed;
}

/** A new EC P-256 private key in PKCS #8 PEM, for a development install without configured keys. */
export function newClaimsKeyPem(): string {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
}

/** A compact JWS of `claims` with `key`. */
export function signClaims(key: ClaimsKey, claims: Record<string, unknown>): string {
  const header = b64url(JSON.stringify({ alg: key.alg, typ: 'JWT', kid: key.kid }));
  const payload = b64url(JSON.stringify(claims));
  const input = `${header}.${payload}`;
  const signature =
    key.alg === 'ES256'
      ? sign('sha256', Buffer.from(input), { key: key.privateKey, dsaEncoding: 'ieee-p1363' })
      : sign('sha256', Buffer.from(input), key.privateKey);
  return `${input}.${b64url(signature)}`;
}

/**
 * The claims of `token` when a key of `jwks` (by `kid`) signed it and it has not expired at `now` (ms);
 * null otherwise. What a relying party does with the published keys; the tests use it.
 */
export function verifyClaims(
  token: string,
  jwks: { keys: JsonWebKey[] },
  now: number,
): Record<string, unknown> | null {
  const [header, payload, signature] = token.split('.');
  if (!header || !payload || !signature) return null;
  try {
    const { alg, kid } = JSON.parse(Buffer.from(header, 'base64url').toString()) as {
      alg: string;
      kid: string;
    };
    const jwk = jwks.keys.find((k) => k.kid === kid && k.alg === alg);
    if (!jwk) return null;
    const key = createPublicKey({ key: jwk, format: 'jwk' });
    const data = Buffer.from(`${header}.${payload}`);
    const sig = Buffer.from(signature, 'base64url');
    const ok =
      alg === 'ES256'
        ? verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, sig)
        : verify('sha256', data, key, sig);
    if (!ok) return null;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    if (typeof claims.exp === 'number' && claims.exp * 1000 <= now) return null;
    return claims;
  } catch {
    return null;
  }
}

/** The public half of every key, as published. */
export const publicJwks = (keys: readonly ClaimsKey[]) => ({ keys: keys.map((k) => k.publicJwk) });
