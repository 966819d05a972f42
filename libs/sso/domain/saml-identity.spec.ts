import { DomainError } from '@app/platform/domain/decider';
import { assertionWindow, checkRecipient, samlIdentity } from './saml-identity';

const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

describe('samlIdentity', () => {
  it('takes the email from an email NameID, lower-cased, and the name from given name and surname', () => {
    expect(
      samlIdentity({
        nameID: 'Ada.Lovelace@Example.test',
        nameIDFormat: EMAIL_FORMAT,
        firstName: 'Ada',
        lastName: 'Lovelace',
      }),
    ).toEqual({ email: 'ada.lovelace@example.test', displayName: 'Ada Lovelace' });
  });

  it('prefers an email attribute to an opaque NameID, and a display name to name parts', () => {
    expect(
      samlIdentity({
        nameID: '00u1abcd',
        nameIDFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
        'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress': ['grace@navy.test', 'x@y.test'],
        'http://schemas.microsoft.com/identity/claims/displayname': 'Grace Hopper',
        givenName: 'G',
      }),
    ).toEqual({ email: 'grace@navy.test', displayName: 'Grace Hopper' });
  });

  it("falls back to the email's local part, and replaces control characters in names", () => {
    expect(samlIdentity({ nameID: 'alan@example.test' }).displayName).toBe('alan');
    expect(samlIdentity({ nameID: 'x@example.test', displayName: 'Bad\u0000Name\n' }).displayName).toBe(
      'Bad Name',
    );
  });

  it('refuses an assertion that names no email, as a 400 naming SAMLResponse', () => {
    for (const attributes of [{ nameID: '00u1abcd' }, {}, { email: 'not an email' }]) {
      let error: unknown;
      try {
        samlIdentity(attributes);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).kind).toBe('invalid');
      expect((error as DomainError).message).toMatch(/^SAMLResponse: .*no email/);
    }
  });
});

describe('assertionWindow', () => {
  const issued = '2026-06-01T00:00:00.000Z';
  const at = Date.parse(issued);

  it('ends at the earlier of NotOnOrAfter and the age limit, plus the skew', () => {
    const assertion = (notOnOrAfter: string) => ({
      Assertion: {
        $: { ID: '_a1', IssueInstant: issued },
        Conditions: [{ $: { NotOnOrAfter: notOnOrAfter } }],
      },
    });
    expect(assertionWindow(assertion('2026-06-01T00:02:00Z'), 300_000, 1_000)).toEqual({
      assertionId: '_a1',
      validUntil: at + 120_000 + 1_000,
    });
    expect(assertionWindow(assertion('2026-06-02T00:00:00Z'), 300_000, 1_000).validUntil).toBe(
      at + 300_000 + 1_000,
    );
  });

  it('bounds an assertion without conditions by its age, and refuses one without an issue instant', () => {
    expect(assertionWindow({ $: { ID: '_a2', IssueInstant: issued } }, 300_000, 0)).toEqual({
      assertionId: '_a2',
      validUntil: at + 300_000,
    });
    expect(() => assertionWindow({ $: { ID: '_a3' } }, 300_000, 0)).toThrow(/IssueInstant/);
  });
});

describe('checkRecipient', () => {
  const ACS = 'https://docs.test/v1/saml/p1/acs';
  const confirmed = (recipient: string, method = 'urn:oasis:names:tc:SAML:2.0:cm:bearer') => ({
    Subject: [
      {
        SubjectConfirmation: [
          { $: { Method: method }, SubjectConfirmationData: [{ $: { Recipient: recipient } }] },
        ],
      },
    ],
  });

  it('takes a bearer confirmation for this service, with or without a Destination naming it', () => {
    expect(() => checkRecipient(confirmed(ACS), ACS, ACS)).not.toThrow();
    expect(() => checkRecipient({ Assertion: confirmed(ACS) }, null, ACS)).not.toThrow();
  });

  it('refuses another Destination, another Recipient, or no bearer confirmation', () => {
    expect(() => checkRecipient(confirmed(ACS), 'https://other.test/acs', ACS)).toThrow(/Destination/);
    expect(() => checkRecipient(confirmed('https://other.test/acs'), null, ACS)).toThrow(/Recipient/);
    expect(() =>
      checkRecipient(confirmed(ACS, 'urn:oasis:names:tc:SAML:2.0:cm:holder-of-key'), null, ACS),
    ).toThrow(/Recipient/);
    expect(() => checkRecipient({}, null, ACS)).toThrow(/Recipient/);
  });
});
