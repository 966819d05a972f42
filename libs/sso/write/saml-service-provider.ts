import { SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import type { SamlProviderSettings } from '../domain/saml-provider.decider';
import type { ServiceEndpoints } from '../domain/service-endpoints';

/** An assertion older than this after it was issued is refused, whatever its conditions allow. */
export const MAX_ASSERTION_AGE_MS = 5 * 60_000;
/** How far the identity provider's clock may be from ours. */
export const CLOCK_SKEW_MS = 60_000;

/** A provider whose entity id, sign-in URL and certificate are all set: one that can be signed in with. */
export type ConfiguredProvider = SamlProviderSettings & {
  entityID: string;
  ssoURL: string;
  certificate: string;
};

export const isConfigured = (provider: SamlProviderSettings): provider is ConfiguredProvider =>
  provider.entityID !== null && provider.ssoURL !== null && provider.certificate !== null;

/**
 * This server as the service provider of one identity provider (`@node-saml/node-saml`): responses must
 * be signed by the provider's certificate, issued by its entity id, meant for this service (audience)
 * and recent. Responses to requests and unsolicited ones (IdP-initiated) are both taken: which request
 * a response answers is not kept, as any replica may receive it; a replayed assertion is refused by
 * the sign-in log instead.
 */
export function serviceProvider(provider: ConfiguredProvider, endpoints: ServiceEndpoints): SAML {
  return new SAML({
    callbackUrl: endpoints.acsURL,
    entryPoint: provider.ssoURL,
    issuer: endpoints.entityID,
    audience: endpoints.entityID,
    idpIssuer: provider.entityID,
    idpCert: provider.certificate,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    validateInResponseTo: ValidateInResponseTo.never,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    maxAssertionAgeMs: MAX_ASSERTION_AGE_MS,
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    disableRequestedAuthnContext: true,
  });
}
