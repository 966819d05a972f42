import { randomUUID } from 'node:crypto';
import type { SigningIdentity } from '@app/sso/domain/certificate.testing';
import { SignedXml } from 'xml-crypto';

/** What a test identity provider asserts, and how; every instant defaults to a response issued now. */
export interface AssertionOptions {
  /** The identity provider's entity id (`Issuer`). */
  issuer: string;
  /** The service provider's entity id (`Audience`). */
  audience: string;
  /** Where the response is posted (`Destination`, `Recipient`). */
  acsURL: string;
  /** The subject's NameID (an email unless `nameIDFormat` says otherwise). */
  nameID: string;
  nameIDFormat?: string;
  /** Attributes by name, each one value or several. */
  attributes?: Record<string, string | string[]>;
  issuedAt?: Date;
  notOnOrAfter?: Date;
  assertionId?: string;
  /** Sign the assertion (true), or leave it unsigned (false). */
  sign?: boolean;
  /** The response's `Destination`, when not `acsURL`; null leaves it out. */
  destination?: string | null;
  /** The bearer confirmation's `Recipient`, when not `acsURL`. */
  recipient?: string;
  /** Leave the assertion's `Conditions` out. */
  withoutConditions?: boolean;
}

const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

const xmlText = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function attributeStatement(attributes: Record<string, string | string[]>): string {
  const entries = Object.entries(attributes);
  if (entries.length === 0) return '';
  const values = (v: string | string[]) =>
    (Array.isArray(v) ? v : [v])
      .map((x) => `<saml:AttributeValue xsi:type="xs:string">${xmlText(x)}</saml:AttributeValue>`)
      .join('');
  const each = entries.map(
    ([name, v]) => `<saml:Attribute Name="${xmlText(name)}">${values(v)}</saml:Attribute>`,
  );
  return `<saml:AttributeStatement>${each.join('')}</saml:AttributeStatement>`;
}

/**
 * A SAML 2.0 response as an identity provider posts it (HTTP-POST binding): base64 of a `Response`
 * whose assertion is signed with the identity's key (RSA-SHA256, exclusive canonicalization, enveloped).
 */
export function samlResponse(identity: SigningIdentity, options: AssertionOptions): string {
  const issued = options.issuedAt ?? new Date();
  const until = options.notOnOrAfter ?? new Date(issued.getTime() + 5 * 60_000);
  const id = options.assertionId ?? `_a${randomUUID().replace(/-/g, '')}`;
  const at = issued.toISOString();
  const end = until.toISOString();
  const assertion =
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ID="${id}" Version="2.0" IssueInstant="${at}">` +
    `<saml:Issuer>${xmlText(options.issuer)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="${options.nameIDFormat ?? EMAIL_FORMAT}">${xmlText(options.nameID)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${end}" Recipient="${xmlText(options.recipient ?? options.acsURL)}"/></saml:SubjectConfirmation></saml:Subject>` +
    (options.withoutConditions
      ? ''
      : `<saml:Conditions NotBefore="${at}" NotOnOrAfter="${end}"><saml:AudienceRestriction><saml:Audience>${xmlText(options.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>`) +
    `<saml:AuthnStatement AuthnInstant="${at}" SessionIndex="${id}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    attributeStatement(options.attributes ?? {}) +
    `</saml:Assertion>`;
  const signed = options.sign === false ? assertion : signAssertion(identity, assertion);
  const to = options.destination === undefined ? options.acsURL : options.destination;
  const destination = to === null ? '' : ` Destination="${xmlText(to)}"`;
  const response =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomUUID().replace(/-/g, '')}" Version="2.0" IssueInstant="${at}"${destination}>` +
    `<saml:Issuer>${xmlText(options.issuer)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    signed +
    `</samlp:Response>`;
  return Buffer.from(response).toString('base64');
}

function signAssertion(identity: SigningIdentity, assertion: string): string {
  const sig = new SignedXml({
    privateKey: identity.privateKey,
    publicCert: identity.certificate,
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  });
  sig.addReference({
    xpath: "//*[local-name(.)='Assertion']",
    transforms: [
      'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
      'http://www.w3.org/2001/10/xml-exc-c14n#',
    ],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  sig.computeSignature(assertion, {
    location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' },
  });
  return sig.getSignedXml();
}
