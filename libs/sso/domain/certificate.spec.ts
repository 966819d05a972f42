import { X509Certificate } from 'node:crypto';
import { DomainError } from '@app/platform/domain/decider';
import { readCertificate } from './certificate';
import {
  certificateRequest,
  ecCertificate,
  keyAgreementCertificate,
  privateKeyPem,
  selfSignedCertificate,
} from './certificate.testing';

const now = Date.parse('2026-06-01T00:00:00Z');
const day = 24 * 60 * 60 * 1000;

/** The error `readCertificate` throws, asserted to be a 400 naming the certificate. */
function refusal(text: string, at = now): DomainError {
  try {
    readCertificate(text, at);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).kind).toBe('invalid');
    expect((error as DomainError).message).toMatch(/^certificate: /);
    return error as DomainError;
  }
  throw new Error('the certificate was accepted');
}

describe('readCertificate', () => {
  let valid: string;

  beforeAll(async () => {
    valid = await selfSignedCertificate(new Date(now - day), new Date(now + 365 * day));
  });

  it('accepts a certificate valid now and returns it as one normalized PEM block', () => {
    const pem = readCertificate(valid, now);
    expect(pem).toBe(new X509Certificate(valid).toString());
    expect(pem).toMatch(/^-----BEGIN CERTIFICATE-----\n[A-Za-z0-9+/=\n]+-----END CERTIFICATE-----\n$/);
  });

  it('normalizes surrounding space and CRLF line breaks', () => {
    const messy = `\n  ${valid.replace(/\n/g, '\r\n')}  \n`;
    expect(readCertificate(messy, now)).toBe(readCertificate(valid, now));
  });

  it('accepts the bare base64 body that identity provider metadata carries', () => {
    const body = valid.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
    expect(readCertificate(body, now)).toBe(readCertificate(valid, now));
  });

  it('accepts the first and the last instant of its validity', async () => {
    const from = new Date('2026-01-01T00:00:00Z');
    const to = new Date('2027-01-01T00:00:00Z');
    const pem = await selfSignedCertificate(from, to);
    expect(() => readCertificate(pem, from.getTime())).not.toThrow();
    expect(() => readCertificate(pem, to.getTime())).not.toThrow();
  });

  it('refuses text that is not PEM', () => {
    expect(refusal('hello, world!').message).toMatch(/not a PEM certificate/);
  });

  it('refuses a PEM block whose body is not a certificate', () => {
    const broken = valid.replace(/\n[A-Za-z0-9+/]{10}/, '\nAAAAAAAAAA');
    expect(refusal(broken).message).toMatch(/not a well-formed X\.509 certificate/);
    expect(refusal('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n').message).toMatch(
      /well-formed/,
    );
  });

  it('refuses a PEM block that is not closed, or not base64', () => {
    expect(refusal(valid.replace('-----END CERTIFICATE-----', '')).message).toMatch(
      /no -----END CERTIFICATE-----/,
    );
    expect(refusal(valid.replace(/\n[A-Za-z0-9+/]{4}/, '\n!!!!')).message).toMatch(/not base64/);
  });

  it('refuses base64 that is not a certificate', () => {
    expect(refusal('QUJDRA==').message).toMatch(/well-formed/);
  });

  it('refuses an expired certificate, saying when it expired', async () => {
    const expired = await selfSignedCertificate(
      new Date('2020-01-01T00:00:00Z'),
      new Date('2021-01-01T00:00:00Z'),
    );
    expect(refusal(expired).message).toBe('certificate: expired on 2021-01-01T00:00:00.000Z');
  });

  it('refuses a certificate that is not valid yet', async () => {
    const future = await selfSignedCertificate(
      new Date('2030-01-01T00:00:00Z'),
      new Date('2031-01-01T00:00:00Z'),
    );
    expect(refusal(future).message).toBe('certificate: not valid before 2030-01-01T00:00:00.000Z');
  });

  it('judges validity at the time it is given, not the machine clock', () => {
    expect(refusal(valid, now + 400 * day).message).toMatch(/expired/);
    expect(refusal(valid, now - 2 * day).message).toMatch(/not valid before/);
  });

  it('refuses a private key, naming it', () => {
    expect(refusal(privateKeyPem()).message).toMatch(/got a private key/);
  });

  it('refuses a certificate signing request', async () => {
    expect(refusal(await certificateRequest()).message).toMatch(/certificate signing request/);
  });

  it('refuses a bare public key', () => {
    const key = new X509Certificate(valid).publicKey.export({ type: 'spki', format: 'pem' }) as string;
    expect(refusal(key).message).toMatch(/bare public key/);
  });

  it('refuses a certificate with a private key pasted after it', () => {
    expect(refusal(`${valid}${privateKeyPem()}`).message).toMatch(/private key/);
  });

  it('refuses a chain of several certificates', () => {
    expect(refusal(`${valid}${valid}`).message).toBe('certificate: give one certificate, not 2');
  });

  it('refuses a certificate for a key XML signatures are not verified with here', async () => {
    const pem = await ecCertificate(new Date(now - day), new Date(now + day));
    expect(refusal(pem).message).toMatch(/its ec key is not supported; .* RSA keys/);
  });

  it('refuses a certificate for a key that cannot sign', async () => {
    const pem = await keyAgreementCertificate(new Date(now - day), new Date(now + day));
    expect(refusal(pem).message).toMatch(/x25519 key cannot sign/);
  });
});
