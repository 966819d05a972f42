import { DomainError, invalid } from '@app/platform/domain/decider';

/** Who an identity provider says signed in: what a user is found or created by. */
export interface SamlIdentity {
  email: string;
  displayName: string;
}

/** The assertion's id and until when it may be accepted (ms). */
export interface AssertionWindow {
  assertionId: string;
  validUntil: number;
}

/** A verified assertion's subject and attributes, by attribute name (`@node-saml/node-saml`'s profile). */
export type SamlAttributes = Record<string, unknown> & { nameID?: string; nameIDFormat?: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** Attribute names identity providers use, most specific first (Okta, Azure AD / ADFS, Google, LDAP OIDs). */
const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
];
const NAME_ATTRIBUTES = [
  'displayName',
  'http://schemas.microsoft.com/identity/claims/displayname',
  'urn:oid:2.16.840.1.113730.3.1.241',
  'name',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name',
];
const GIVEN_NAME = [
  'firstName',
  'givenName',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
];
const SURNAME = [
  'lastName',
  'sn',
  'surname',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
];

/** An attribute's first value as trimmed text; multi-valued attributes arrive as arrays. */
function text(attributes: SamlAttributes, names: readonly string[]): string | undefined {
  for (const name of names) {
    const raw = attributes[name];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  return undefined;
}

/** Control characters are refused in names everywhere; a provider's are replaced by spaces. */
const clean = (value: string) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  value.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();

/**
 * The user an assertion names: the email from an email attribute, else from the subject's NameID when
 * it is an email; the display name from a name attribute, else given name and surname, else the
 * email's local part.
 */
export function samlIdentity(attributes: SamlAttributes): SamlIdentity {
  const nameID = typeof attributes.nameID === 'string' ? attributes.nameID.trim() : '';
  const fromNameID = attributes.nameIDFormat === EMAIL_FORMAT || EMAIL.test(nameID) ? nameID : undefined;
  const email = (text(attributes, EMAIL_ATTRIBUTES) ?? fromNameID)?.toLowerCase();
  if (!email || !EMAIL.test(email))
    throw invalid('SAMLResponse: the assertion names no email (an email attribute or an email NameID)');
  const given = text(attributes, GIVEN_NAME);
  const surname = text(attributes, SURNAME);
  const name =
    text(attributes, NAME_ATTRIBUTES) ??
    ([given, surname].filter(Boolean).join(' ') || email.slice(0, email.indexOf('@')));
  return { email, displayName: clean(name).slice(0, 255) || email };
}

/** What an assertion's XML, as xml2js reads it, holds about its id and validity. */
interface AssertionXml {
  $?: { ID?: string; IssueInstant?: string };
  Conditions?: { $?: { NotOnOrAfter?: string } }[];
}

/**
 * The assertion's id and the end of its validity: its conditions' NotOnOrAfter, capped at `maxAgeMs`
 * after it was issued (the verifier accepts nothing older), plus the clock skew tolerated.
 */
export function assertionWindow(
  assertion: { Assertion?: AssertionXml } | AssertionXml,
  maxAgeMs: number,
  skewMs: number,
): AssertionWindow {
  const xml = ('Assertion' in assertion ? assertion.Assertion : assertion) as AssertionXml | undefined;
  const assertionId = xml?.$?.ID ?? '';
  const issued = Date.parse(xml?.$?.IssueInstant ?? '');
  const notOnOrAfter = Date.parse(xml?.Conditions?.[0]?.$?.NotOnOrAfter ?? '');
  const limits = [issued + maxAgeMs, notOnOrAfter].filter((ms) => Number.isFinite(ms));
  if (limits.length === 0) throw invalid('SAMLResponse: the assertion has no IssueInstant');
  return { assertionId, validUntil: Math.min(...limits) + skewMs };
}

/** The bearer subject confirmations of an assertion, as xml2js reads it (prefixes stripped). */
interface SubjectXml {
  Subject?: {
    SubjectConfirmation?: {
      $?: { Method?: string };
      SubjectConfirmationData?: { $?: { Recipient?: string } }[];
    }[];
  }[];
}

const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';

/**
 * Whether the response was meant for this service's assertion consumer service (SAML Web Browser SSO
 * profile, 4.1.4.3): a bearer confirmation whose `Recipient` is `acsURL` (it is signed with the
 * assertion), and the response's `Destination`, when it has one, the same. Throws a 401 saying which.
 */
export function checkRecipient(
  assertion: { Assertion?: SubjectXml } | SubjectXml,
  destination: string | null,
  acsURL: string,
): void {
  const xml = ('Assertion' in assertion ? assertion.Assertion : assertion) as SubjectXml | undefined;
  if (destination !== null && destination !== acsURL)
    throw new DomainError('unauthorized', 'SAMLResponse: its Destination is not this service');
  const recipients = (xml?.Subject?.[0]?.SubjectConfirmation ?? [])
    .filter((confirmation) => confirmation.$?.Method === BEARER)
    .flatMap((confirmation) => confirmation.SubjectConfirmationData ?? [])
    .map((data) => data.$?.Recipient);
  if (!recipients.includes(acsURL))
    throw new DomainError(
      'unauthorized',
      'SAMLResponse: its bearer confirmation is not for this service (Recipient)',
    );
}
