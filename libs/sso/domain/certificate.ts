import { X509Certificate } from 'node:crypto';
import { invalid } from '@app/platform/domain/decider';

/** Keys made for key agreement only: they cannot sign, so an assertion could never be verified with them. */
const CANNOT_SIGN = new Set(['x25519', 'x448']);
/** What XML signatures are verified with here (RSA with SHA-1, SHA-256 or SHA-512, as SAML IdPs sign). */
const VERIFIABLE = new Set(['rsa', 'rsa-pss']);

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----/g;
const BASE64 = /^[A-Za-z0-9+/=\s]+$/;
const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----([^-]*)-----END CERTIFICATE-----/;

/** What a PEM block that is not a certificate holds, in words. */
function blockName(label: string): string {
  if (label.includes('PRIVATE KEY'))
    return 'a private key (give the identity provider’s certificate, never a key)';
  if (label.includes('CERTIFICATE REQUEST')) return 'a certificate signing request, not a signed certificate';
  if (label.includes('PUBLIC KEY')) return 'a bare public key, not a certificate';
  return `a "${label}" block`;
}

const refuse = (why: string) => invalid(`certificate: ${why}`);

/**
 * The identity provider's signing certificate, checked and normalized to one PEM block: a single
 * X.509 certificate (PEM, or the bare base64 that IdP metadata carries), valid at `at`, with an RSA key
 * (what XML signatures of SAML responses are verified with). Parsing is Node's own X.509 implementation; a refusal is an `invalid` naming `certificate`.
 */
export function readCertificate(text: string, at: number): string {
  const labels = [...text.matchAll(PEM_BLOCK)].map((m) => m[1]);
  const other = labels.find((label) => label !== 'CERTIFICATE');
  if (other !== undefined) throw refuse(`expected an X.509 certificate, got ${blockName(other)}`);
  if (labels.length > 1) throw refuse(`give one certificate, not ${labels.length}`);
  let body = text;
  if (labels.length === 1) {
    const block = PEM_CERTIFICATE.exec(text);
    if (!block) throw refuse('its PEM block has no -----END CERTIFICATE----- line');
    body = block[1];
  }
  if (!BASE64.test(body)) {
    throw refuse(
      labels.length ? 'its PEM block is not base64' : 'not a PEM certificate (-----BEGIN CERTIFICATE-----)',
    );
  }
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(Buffer.from(body.replace(/\s+/g, ''), 'base64'));
  } catch {
    throw refuse('not a well-formed X.509 certificate');
  }
  const from = Date.parse(cert.validFrom);
  const to = Date.parse(cert.validTo);
  if (Number.isNaN(from) || Number.isNaN(to)) throw refuse('its validity dates cannot be read');
  if (at < from) throw refuse(`not valid before ${new Date(from).toISOString()}`);
  if (at > to) throw refuse(`expired on ${new Date(to).toISOString()}`);
  const keyType = cert.publicKey.asymmetricKeyType ?? 'unknown';
  if (CANNOT_SIGN.has(keyType)) throw refuse(`its ${keyType} key cannot sign; SAML needs a signing key`);
  if (!VERIFIABLE.has(keyType))
    throw refuse(`its ${keyType} key is not supported; SAML responses are verified with RSA keys`);
  return cert.toString();
}
