import { auditSubjects } from '@app/platform/domain/audit-subject';
import type { SiteEvent } from './site.decider';

/** What each site event is about, for the audit log (`site.created`, `site.published`, …, `site.customization_updated`, `site.adaptive_schema_replaced`). */
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
    SiteAdaptiveSchemaReplaced: (d) => ({ type: 'site', id: d.siteId, organization: d.organization }),
    // The site's structure changes are the site's: audited as `site.space_added`, `site.section_moved`, `site.section_group_added`, …
    SiteSpaceAdded: (d) => ({ type: 'site-space', id: d.siteSpace.id, organization: d.organization }),
    SiteSpaceUpdated: (d) => ({ type: 'site-space', id: d.siteSpaceId, organization: d.organization }),
    SiteSpaceRemoved: (d) => ({ type: 'site-space', id: d.siteSpaceId, organization: d.organization }),
    SiteSpaceMoved: (d) => ({ type: 'site-space', id: d.siteSpaceId, organization: d.organization }),
    SiteSectionAdded: (d) => ({
      type: 'site-section',
      id: d.section.id,
      organization: d.organization,
      label: d.section.title,
    }),
    SiteSectionUpdated: (d) => ({
      type: 'site-section',
      id: d.sectionId,
      organization: d.organization,
      label: d.changes.title,
    }),
    SiteSectionRemoved: (d) => ({ type: 'site-section', id: d.sectionId, organization: d.organization }),
    SiteSectionMoved: (d) => ({ type: 'site-section', id: d.sectionId, organization: d.organization }),
    SiteSectionGroupAdded: (d) => ({
      type: 'site-section-group',
      id: d.group.id,
      organization: d.organization,
      label: d.group.title,
    }),
    SiteSectionGroupUpdated: (d) => ({
      type: 'site-section-group',
      id: d.groupId,
      organization: d.organization,
      label: d.changes.title,
    }),
    SiteSectionGroupRemoved: (d) => ({
      type: 'site-section-group',
      id: d.groupId,
      organization: d.organization,
    }),
    SiteSectionGroupMoved: (d) => ({
      type: 'site-section-group',
      id: d.groupId,
      organization: d.organization,
    }),
  },
});
