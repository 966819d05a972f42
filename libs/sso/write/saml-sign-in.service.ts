import { createHash } from 'node:crypto';
import { userAggregate } from '@app/identity/domain/user.aggregate';
import { USERS } from '@app/identity/read/identity.projection';
import { organizationAggregate } from '@app/organizations/domain/organization.aggregate';
import { samlInvite } from '@app/organizations/domain/organization.decider';
import type { Config } from '@app/platform/config/config';
import { CONFIG } from '@app/platform/config/config.module';
import { DomainError, notFound } from '@app/platform/domain/decider';
import { hashSecret, newId, newSecretToken } from '@app/platform/domain/ids';
import { Urls } from '@app/platform/http/urls';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import type { CommandContext } from '@app/platform/write/command-context';
import { CommandRunner } from '@app/platform/write/command-runner';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Profile } from '@node-saml/node-saml';
import { assertionWindow, checkRecipient, type SamlAttributes, samlIdentity } from '../domain/saml-identity';
import { samlProviderAggregate } from '../domain/saml-provider.aggregate';
import { samlSignInAggregate } from '../domain/saml-sign-in.aggregate';
import { serviceEndpoints } from '../domain/service-endpoints';
import { responseDestination } from './saml-response-xml';
import {
  CLOCK_SKEW_MS,
  type ConfiguredProvider,
  isConfigured,
  MAX_ASSERTION_AGE_MS,
  serviceProvider,
} from './saml-service-provider';

/** What a sign-in answers: an API token for the member, which expires. */
export interface SamlSession {
  token: string;
  expiresAt: string;
  userId: string;
  organizationId: string;
  position: number;
  revision: number;
}

/** A SAML response is base64 of a signed XML document; the body limit bounds its size. */
const BASE64 = /^[A-Za-z0-9+/=\r\n]+$/;
const RELAY_STATE = /^[\x20-\x7e]{0,512}$/;
const CORRELATION = /^[A-Za-z0-9._:-]{1,128}$/;

/** A user a sign-in creates has an id derived from the email, so two first sign-ins at once make one. */
const userIdFor = (email: string) =>
  createHash('sha256').update(`saml-user:${email}`).digest('hex').slice(0, 24);

/**
 * Signing in with an organization's SAML provider, as its service provider: sends a browser to the
 * identity provider, and turns the signed response it posts back into a member and an API token. The
 * provider is read from its own stream, so a deleted or reconfigured provider applies on every replica
 * at once. A newcomer is admitted with the provider's `defaultRole` (a null one admits a guest) and
 * marked as an SSO member; the provider's `defaultTeam` is applied by a job started from the admission
 * (`SsoDefaultTeam`), so a crash between the two loses nothing.
 */
@Injectable()
export class SamlSignInService {
  constructor(
    private readonly bus: CommandBus,
    private readonly runner: CommandRunner,
    @Inject(READ_STORE) private readonly views: ReadStore,
    @Inject(CONFIG) private readonly config: Config,
    private readonly urls: Urls,
  ) {}

  /** Where a browser starts: the identity provider's sign-in URL with a request from this service. */
  @Remote(
    arg.id('samlProviderId'),
    arg.text('relayState', RELAY_STATE, 'printable text of at most 512 characters'),
  )
  async start(samlProviderId: string, relayState: string): Promise<{ url: string }> {
    const { provider } = await this.provider(samlProviderId);
    const url = await this.saml(samlProviderId, provider).getAuthorizeUrlAsync(relayState, undefined, {});
    return { url };
  }

  /** This service's SAML metadata, for the identity provider's configuration. */
  @Remote(arg.id('samlProviderId'))
  async metadata(samlProviderId: string): Promise<{ xml: string }> {
    const { provider } = await this.provider(samlProviderId);
    return { xml: this.saml(samlProviderId, provider).generateServiceProviderMetadata(null) };
  }

  /**
   * Verifies the identity provider's response and signs its subject in: the user with the asserted
   * email (created if there is none), admitted to the organization if not a member, with a new token.
   */
  @Remote(
    arg.id('samlProviderId'),
    arg.text('samlResponse', BASE64, 'base64 (the SAMLResponse of the HTTP-POST binding)'),
    arg.text('correlationId', CORRELATION, 'a request id'),
  )
  async signIn(samlProviderId: string, samlResponse: string, correlationId: string): Promise<SamlSession> {
    const { provider, organization } = await this.provider(samlProviderId);
    const profile = await this.verified(samlProviderId, provider, samlResponse);
    const identity = samlIdentity(profile as SamlAttributes);
    const window = assertionWindow(
      (profile.getAssertion?.() ?? {}) as Parameters<typeof assertionWindow>[0],
      MAX_ASSERTION_AGE_MS,
      CLOCK_SKEW_MS,
    );
    const userId = await this.userFor(identity, correlationId);
    const ctx: CommandContext = { userId, source: 'api', correlationId, causationId: null };
    const at = this.runner.now();
    await this.bus.execute(
      samlSignInAggregate.message(
        samlProviderId,
        {
          type: 'AcceptSamlAssertion',
          samlProviderId,
          organization,
          userId,
          email: identity.email,
          ...window,
          at,
        },
        ctx,
      ),
    );
    await this.bus.execute(
      organizationAggregate.message(
        organization,
        { type: 'AdmitMember', userId, role: provider.defaultRole, invite: samlInvite(samlProviderId), at },
        ctx,
      ),
    );
    await this.bus.execute(
      organizationAggregate.message(organization, { type: 'SetMemberAsSso', userId, at }, ctx),
    );
    const token = newSecretToken();
    const expiresAt = at + this.config.ssoSessionHours * 3_600_000;
    const issued = await this.bus.execute(
      userAggregate.message(
        userId,
        {
          type: 'IssueApiToken',
          tokenId: newId(),
          tokenHash: hashSecret(token),
          label: `SAML sign-in (${provider.label})`,
          at,
          expiresAt,
          // The provider vouches for this organization only: the token acts nowhere else.
          organization,
        },
        ctx,
      ),
    );
    return {
      token,
      expiresAt: new Date(expiresAt).toISOString(),
      userId,
      organizationId: organization,
      position: issued.position,
      revision: issued.revision,
    };
  }

  /** The provider, live and fully configured; any other is not found (nothing to sign in with). */
  private async provider(samlProviderId: string) {
    const { state } = await this.runner.current(samlProviderAggregate, samlProviderId);
    if (state.status !== 'active') throw notFound('SAML provider not found');
    if (!isConfigured(state))
      throw notFound('SAML provider not found: it is pending (entityID, ssoURL and certificate are needed)');
    return { provider: state as typeof state & ConfiguredProvider, organization: state.organization };
  }

  private endpoints(samlProviderId: string) {
    return serviceEndpoints((path) => this.urls.api(path), samlProviderId);
  }

  private saml(samlProviderId: string, provider: ConfiguredProvider) {
    return serviceProvider(provider, this.endpoints(samlProviderId));
  }

  /** The response's assertion, verified; any failure is a 401 saying why, never a 500. */
  private async verified(samlProviderId: string, provider: ConfiguredProvider, samlResponse: string) {
    let profile: Profile | null;
    try {
      ({ profile } = await this.saml(samlProviderId, provider).validatePostResponseAsync({
        SAMLResponse: samlResponse,
      }));
    } catch (error) {
      // The verifier's own refusals are plain Errors saying why; anything else is a fault of the
      // response's shape met inside it, whose text says nothing to the caller and stays in the log.
      const why =
        error instanceof Error && error.constructor === Error
          ? error.message.slice(0, 200)
          : 'it is malformed';
      throw new DomainError('unauthorized', `SAMLResponse: not accepted (${why})`);
    }
    if (!profile) throw new DomainError('unauthorized', 'SAMLResponse: not a sign-in response');
    checkRecipient(
      (profile.getAssertion?.() ?? {}) as Parameters<typeof checkRecipient>[0],
      responseDestination(profile.getSamlResponseXml?.() ?? ''),
      this.endpoints(samlProviderId).acsURL,
    );
    // The verifier checks the signature, audience and times; who issued the (signed) assertion is ours to check.
    if (profile.issuer !== provider.entityID)
      throw new DomainError(
        'unauthorized',
        `SAMLResponse: issued by ${JSON.stringify(profile.issuer)}, not this provider`,
      );
    return profile;
  }

  /** The user with this email, or a new one (`UserCreated`, which also admits invites to that email). */
  private async userFor(identity: { email: string; displayName: string }, correlationId: string) {
    const known = (await this.views.find(USERS, { where: { email: identity.email }, limit: 1 })).items[0];
    if (known) return known.id;
    const userId = userIdFor(identity.email);
    try {
      await this.bus.execute(
        userAggregate.message(
          userId,
          { type: 'CreateUser', userId, ...identity, at: this.runner.now() },
          { userId, source: 'api', correlationId, causationId: null },
        ),
      );
    } catch (error) {
      // Created already (the views not there yet), or by a sign-in of the same person at the same moment.
      if (!(error instanceof DomainError && error.kind === 'conflict')) throw error;
    }
    return userId;
  }
}
