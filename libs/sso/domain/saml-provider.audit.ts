import { auditSubjects } from '@app/platform/domain/audit-subject';
import type { SamlProviderEvent } from './saml-provider.decider';
import type { SamlSignInEvent } from './saml-sign-in.decider';

/** What each SAML provider event is about, for the audit log; a sign-in is about the member signing in. */
export const samlProviderAuditSubjects = auditSubjects<SamlProviderEvent | SamlSignInEvent>()({
  saml_provider: {
    SamlProviderCreated: (d) => ({
      type: 'saml-provider',
      id: d.samlProviderId,
      organization: d.organization,
      label: d.label,
    }),
    SamlProviderUpdated: (d) => ({
      type: 'saml-provider',
      id: d.samlProviderId,
      organization: d.organization,
      label: d.changes.label,
    }),
    SamlProviderDeleted: (d) => ({
      type: 'saml-provider',
      id: d.samlProviderId,
      organization: d.organization,
    }),
  },
  saml_sign_in: {
    SamlSignInAccepted: (d) => ({ type: 'member', id: d.userId, organization: d.organization }),
  },
});
