import { auditSubjects, type Subject } from '@app/platform/domain/audit-subject';
import type { PublishingAuthEvent } from './publishing-auth.decider';

const site = (d: { siteId: string; organization: string }): Subject => ({
  type: 'site_publishing_auth',
  id: d.siteId,
  organization: d.organization,
});

/** `site_publishing_auth.updated`, `site_publishing_auth.key_regenerated`: the key itself is never logged. */
export const publishingAuthAuditSubjects = auditSubjects<PublishingAuthEvent>()({
  site_publishing_auth: {
    SitePublishingAuthUpdated: site,
    SitePublishingAuthKeyRegenerated: site,
  },
});
