import { spec } from '@app/platform/domain/decider.testing';
import {
  type AcceptSamlAssertion,
  type SamlSignInEvent,
  samlSignInDecider,
  samlSignInStream,
} from './saml-sign-in.decider';

const t0 = Date.parse('2026-06-01T00:00:00Z');
const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

const accept = (assertionId: string, at: number, validUntil = at + 5 * MIN): AcceptSamlAssertion => ({
  type: 'AcceptSamlAssertion',
  samlProviderId: 'idp1',
  organization: 'org1',
  userId: 'u1',
  email: 'ada@example.test',
  assertionId,
  validUntil,
  at,
});

const accepted = (assertionId: string, at: number, validUntil = at + 5 * MIN): SamlSignInEvent => ({
  type: 'SamlSignInAccepted',
  data: {
    samlProviderId: 'idp1',
    organization: 'org1',
    userId: 'u1',
    email: 'ada@example.test',
    assertionId,
    validUntil: iso(validUntil),
    acceptedAt: iso(at),
  },
});

const signIns = spec(samlSignInDecider);

describe('SAML sign-in decider', () => {
  it('names the stream after the provider', () => {
    expect(samlSignInStream('idp1')).toBe('saml-sign-ins-idp1');
  });

  it('accepts an assertion once, and refuses it again while it is valid', () => {
    const state = signIns.when(accept('_a1', t0)).thenEmits([accepted('_a1', t0)]);
    expect(state).toEqual({ accepted: { _a1: t0 + 5 * MIN } });
    signIns
      .given([accepted('_a1', t0)])
      .when(accept('_a1', t0 + MIN))
      .thenThrows('unauthorized', /already used/);
    signIns
      .given([accepted('_a1', t0)])
      .when(accept('_a2', t0 + MIN))
      .thenEmits([accepted('_a2', t0 + MIN)]);
  });

  it('refuses an assertion past its validity, and one without an id', () => {
    signIns.when(accept('_a1', t0, t0)).thenThrows('unauthorized', /expired/);
    signIns.when(accept('', t0)).thenThrows('invalid', /no ID/);
  });

  it('forgets assertions whose validity has passed, so its state stays bounded', () => {
    const state = signIns
      .given([accepted('_a1', t0), accepted('_a2', t0 + 2 * MIN)])
      .when(accept('_a3', t0 + 6 * MIN))
      .thenEmits([accepted('_a3', t0 + 6 * MIN)]);
    expect(Object.keys(state.accepted).sort()).toEqual(['_a2', '_a3']);
  });
});
