import { documents, projection } from '@app/platform/projector/projection';
import { collectionName, type Doc } from '@app/platform/readstore/read-store.port';
import { applyChanges, type SiteEvent, type SiteSettings } from '../domain/site.decider';
import type { SiteCustomization } from '../domain/site-customization';

export interface SiteDoc extends Doc, SiteSettings {
  organization: string;
  published: boolean;
  /** Its customization and when it was set; absent until set. */
  customization?: { settings: SiteCustomization; updatedAt: string };
  /** How many site spaces the site has. */
  siteSpaces: number;
  createdAt: string;
  updatedAt: string;
  /** Revision of the site's stream: its ETag. */
  streamRevision: number;
}

export const SITES = collectionName<SiteDoc>('sites');

const sites = documents(SITES);

/** Sites; a deleted one is gone from the views. */
export const siteProjection = projection<SiteEvent>(
  'sites',
  [
    { collection: SITES, fields: ['organization', 'createdAt'] },
    { collection: SITES, fields: ['organization', 'published', 'createdAt'] },
  ],
  {
    SiteCreated: sites.put((e) => {
      const { siteId, createdAt, ...settings } = e.data;
      return {
        id: siteId,
        ...settings,
        published: false,
        siteSpaces: 0,
        createdAt,
        updatedAt: createdAt,
        streamRevision: e.revision,
      };
    }),
    SiteUpdated: sites.update(
      (e) => e.data.siteId,
      (doc, e) => ({
        ...applyChanges(doc, e.data.changes),
        updatedAt: e.data.updatedAt,
        streamRevision: e.revision,
      }),
    ),
    SitePublished: sites.update(
      (e) => e.data.siteId,
      (doc, e) => ({ ...doc, published: true, updatedAt: e.data.publishedAt, streamRevision: e.revision }),
    ),
    SiteUnpublished: sites.update(
      (e) => e.data.siteId,
      (doc, e) => ({ ...doc, published: false, updatedAt: e.data.unpublishedAt, streamRevision: e.revision }),
    ),
    SiteCustomizationUpdated: sites.update(
      (e) => e.data.siteId,
      (doc, e) => ({
        ...doc,
        customization: { settings: e.data.customization, updatedAt: e.data.updatedAt },
        streamRevision: e.revision,
      }),
    ),
    SiteDeleted: sites.delete((e) => e.data.siteId),
  },
);
