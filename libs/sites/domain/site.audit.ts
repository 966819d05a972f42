import { auditSubjects } from '@app/platform/domain/audit-subject';
import type { SiteEvent } from './site.decider';

/** What each site event is about, for the audit log (`site.created`, `site.published`, …, `site.customization_updated`). */
export const siteAuditSubjects = auditSubjects<SiteEvent>()({
  site: {
    SiteCreated: (d) => ({ type: 'site', id: d.siteId, organization: d.organization, label: d.title }),
    SiteUpdated: (d) => ({
      type: 'site',
      id: d.siteId,
      organization: d.organization,
      label: d.changes.title,
    }),
    SitePublished: (d) => ({ type: 'site', id: d.siteId, organization: d.organization }),
    SiteUnpublished: (d) => ({ type: 'site', id: d.siteId, organization: d.organization }),
    SiteDeleted: (d) => ({ type: 'site', id: d.siteId, organization: d.organization }),
    SiteCustomizationUpdated: (d) => ({ type: 'site', id: d.siteId, organization: d.organization }),
  },
});
