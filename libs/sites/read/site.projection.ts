import type { RecordedEvent } from '@app/platform/eventstore/event-store.port';
import { documents, projection } from '@app/platform/projector/projection';
import { collectionName, type Doc } from '@app/platform/readstore/read-store.port';
import { applyChanges, type SiteEvent, type SiteSettings } from '../domain/site.decider';
import type { SiteCustomization } from '../domain/site-customization';

export interface SiteDoc extends Doc, SiteSettings {
  organization: string;
  published: boolean;
  /** Its customization and when it was set; absent until set. */
  customization?: { settings: SiteCustomization; updatedAt: string };
  /**
   * Its adaptive schema (as JSON: its keys, `$schema` and claim names, are not all keys a store takes)
   * and when it was set; absent until set.
   */
  adaptiveSchema?: { json: string; updatedAt: string };
  /** How many site spaces the site has. */
  siteSpaces: number;
  createdAt: string;
  updatedAt: string;
  /** Revision of the site's stream: its ETag. */
  streamRevision: number;
}

export const SITES = collectionName<SiteDoc>('sites');

const sites = documents(SITES);

/** A handler adding to the site's count of site spaces; its ETag follows its stream. */
const counted = <V extends RecordedEvent>(key: (e: V) => string, by: (e: V) => number) =>
  sites.update(key, (doc, e: V) => ({
    ...doc,
    siteSpaces: doc.siteSpaces + by(e),
    streamRevision: e.revision,
  }));

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
    SiteAdaptiveSchemaReplaced: sites.update(
      (e) => e.data.siteId,
      (doc, e) => ({
        ...doc,
        adaptiveSchema: { json: JSON.stringify(e.data.jsonSchema), updatedAt: e.data.updatedAt },
        streamRevision: e.revision,
      }),
    ),
    SiteDeleted: sites.delete((e) => e.data.siteId),
    // Its count of site spaces: a first section taking the root's site spaces adds none.
    SiteSpaceAdded: counted(
      (e) => e.data.siteId,
      () => 1,
    ),
    SiteSpaceRemoved: counted(
      (e) => e.data.siteId,
      () => -1,
    ),
    SiteSectionAdded: counted(
      (e) => e.data.siteId,
      (e) => (e.data.fromRoot ? 0 : e.data.section.siteSpaces.length),
    ),
    // The site's stream moved on: its ETag with it.
    SiteSpaceUpdated: counted(
      (e) => e.data.siteId,
      () => 0,
    ),
    SiteSpaceMoved: counted(
      (e) => e.data.siteId,
      () => 0,
    ),
    SiteSectionUpdated: counted(
      (e) => e.data.siteId,
      () => 0,
    ),
    SiteSectionMoved: counted(
      (e) => e.data.siteId,
      () => 0,
    ),
    SiteSectionRemoved: counted(
      (e) => e.data.siteId,
      (e) => -e.data.siteSpaces.length,
    ),
  },
);
