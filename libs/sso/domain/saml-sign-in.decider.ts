import { type Decider, type Decisions, DomainError, decideBy, invalid } from '@app/platform/domain/decider';

/**
 * Sign-ins through one SAML provider, on a stream of their own: each accepted assertion is recorded, and
 * one seen before is refused while it could still be valid, so a captured response cannot be replayed
 * to mint another token. Assertions whose validity has passed are forgotten, which bounds the state by
 * the sign-ins of one validity window.
 */
export interface SamlSignInState {
  /** Assertion ids accepted, each with the instant (ms) after which it is refused anyway. */
  accepted: Record<string, number>;
}

export interface SamlSignInAccepted {
  type: 'SamlSignInAccepted';
  data: {
    samlProviderId: string;
    organization: string;
    userId: string;
    email: string;
    assertionId: string;
    validUntil: string;
    acceptedAt: string;
  };
}

export type SamlSignInEvent = SamlSignInAccepted;

export interface AcceptSamlAssertion {
  type: 'AcceptSamlAssertion';
  samlProviderId: string;
  organization: string;
  userId: string;
  email: string;
  assertionId: string;
  /** When the assertion stops being valid (ms): its conditions' end, or its age limit. */
  validUntil: number;
  at: number;
}

export type SamlSignInCommand = AcceptSamlAssertion;

const iso = (ms: number) => new Date(ms).toISOString();

/** What each command decides. */
const decisions: Decisions<SamlSignInCommand, SamlSignInEvent, SamlSignInState> = {
  AcceptSamlAssertion(command, state) {
    if (!command.assertionId) throw invalid('SAMLResponse: the assertion has no ID');
    if (command.validUntil <= command.at)
      throw new DomainError('unauthorized', 'SAMLResponse: the assertion has expired');
    const until = state.accepted[command.assertionId];
    if (until !== undefined && until > command.at)
      throw new DomainError('unauthorized', 'SAMLResponse: this assertion was already used to sign in');
    return [
      {
        type: 'SamlSignInAccepted',
        data: {
          samlProviderId: command.samlProviderId,
          organization: command.organization,
          userId: command.userId,
          email: command.email,
          assertionId: command.assertionId,
          validUntil: iso(command.validUntil),
          acceptedAt: iso(command.at),
        },
      },
    ];
  },
};

export const samlSignInDecider: Decider<SamlSignInCommand, SamlSignInEvent, SamlSignInState> = {
  initialState: { accepted: {} },

  decide: decideBy(decisions),

  evolve(state, event) {
    const at = Date.parse(event.data.acceptedAt);
    const accepted: Record<string, number> = {};
    for (const [id, until] of Object.entries(state.accepted)) if (until > at) accepted[id] = until;
    accepted[event.data.assertionId] = Date.parse(event.data.validUntil);
    return { accepted };
  },
};

export const samlSignInStream = (samlProviderId: string) => `saml-sign-ins-${samlProviderId}`;

/** The job that puts a member admitted through a provider into its default team (`SsoDefaultTeam`). */
export const SSO_DEFAULT_TEAM_JOB = 'sso.default-team';
