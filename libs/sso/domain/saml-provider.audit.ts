import { auditSubjects } from '@app/platform/domain/audit-subject';
import type { SamlProviderEvent } from './saml-provider.decider';

/** What each SAML provider event is about, for the audit log. */
export const samlProviderAuditSubjects = auditSubjects<SamlProviderEvent>({
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
  SamlProviderDeleted: (d) => ({ type: 'saml-provider', id: d.samlProviderId, organization: d.organization }),
});
