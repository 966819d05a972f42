import 'reflect-metadata';
import { generateKeyPairSync, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

// Node cannot sign certificates itself; @peculiar/x509 does it over Node's WebCrypto, for test fixtures only.
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };

async function ecKeys(): Promise<webcrypto.CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(EC, true, [
    'sign',
    'verify',
  ])) as unknown as webcrypto.CryptoKeyPair;
}

const RSA = {
  name: 'RSASSA-PKCS1-v1_5',
  modulusLength: 2048,
  publicExponent: new Uint8Array([1, 0, 1]),
  hash: 'SHA-256',
};

/** An identity provider's signing key and its self-signed RSA certificate, both as PEM. */
export interface SigningIdentity {
  certificate: string;
  privateKey: string;
}

/** A self-signed RSA identity provider certificate valid between the two instants, with its key. */
export async function signingIdentity(
  notBefore: Date,
  notAfter: Date,
  name = 'CN=Test IdP',
): Promise<SigningIdentity> {
  const keys = (await webcrypto.subtle.generateKey(RSA, true, [
    'sign',
    'verify',
  ])) as unknown as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name,
    notBefore,
    notAfter,
    keys,
    signingAlgorithm: RSA,
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  const lines = pkcs8.match(/.{1,64}/g) ?? [];
  return {
    certificate: cert.toString('pem'),
    privateKey: `-----BEGIN PRIVATE KEY-----\n${lines.join('\n')}\n-----END PRIVATE KEY-----\n`,
  };
}

/** A self-signed identity provider certificate (RSA) valid between the two instants, as PEM. */
export async function selfSignedCertificate(notBefore: Date, notAfter: Date, name?: string): Promise<string> {
  return (await signingIdentity(notBefore, notAfter, name)).certificate;
}

/** A self-signed certificate for an EC P-256 key. */
export async function ecCertificate(notBefore: Date, notAfter: Date): Promise<string> {
  const keys = await ecKeys();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '03',
    name: 'CN=EC IdP',
    notBefore,
    notAfter,
    keys,
    signingAlgorithm: EC,
  });
  return cert.toString('pem');
}

/** A certificate for an X25519 key (key agreement only), signed by a throwaway EC issuer. */
export async function keyAgreementCertificate(notBefore: Date, notAfter: Date): Promise<string> {
  const issuer = await ecKeys();
  const subject = (await webcrypto.subtle.generateKey({ name: 'X25519' }, true, [
    'deriveBits',
  ])) as unknown as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: '02',
    subject: 'CN=Key agreement',
    issuer: 'CN=Test CA',
    notBefore,
    notAfter,
    publicKey: subject.publicKey,
    signingKey: issuer.privateKey,
    signingAlgorithm: EC,
  });
  return cert.toString('pem');
}

/** A certificate signing request: what one sends to a CA, not a certificate. */
export async function certificateRequest(): Promise<string> {
  const keys = await ecKeys();
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: 'CN=Test IdP',
    keys,
    signingAlgorithm: EC,
  });
  return csr.toString('pem');
}

/** A PKCS#8 private key in PEM. */
export function privateKeyPem(): string {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  }) as string;
}
