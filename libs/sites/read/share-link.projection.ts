import { documents, projection } from '@app/platform/projector/projection';
import { collectionName, type Doc } from '@app/platform/readstore/read-store.port';
import type { ShareLinkEvent } from '../domain/share-link.decider';
import type { SiteEvent } from '../domain/site.decider';

export interface ShareLinkDoc extends Doc {
  organization: string;
  siteId: string;
  name: string;
  active: boolean;
  /** Hash of the link's key (the key itself is derived, never stored): what a key is looked up by. */
  keyHash: string;
  createdAt: string;
  updatedAt: string;
  /** Revision of the link's stream: its ETag. */
  streamRevision: number;
}

export const SHARE_LINKS = collectionName<ShareLinkDoc>('share_links');

const links = documents(SHARE_LINKS);

const touched = (doc: ShareLinkDoc, at: string, revision: number, change: Partial<ShareLinkDoc> = {}) => ({
  ...doc,
  ...change,
  updatedAt: at,
  streamRevision: revision,
});

/** Share links of sites, listed by site; a deleted one, or one of a deleted site, is gone from the views. */
export const shareLinkProjection = projection<ShareLinkEvent | SiteEvent>(
  'share-links',
  [
    { collection: SHARE_LINKS, fields: ['siteId', 'createdAt'] },
    { collection: SHARE_LINKS, fields: ['keyHash'] },
  ],
  {
    ShareLinkCreated: links.put((e) => {
      const { shareLinkId, createdAt, ...facts } = e.data;
      return {
        id: shareLinkId,
        ...facts,
        active: true,
        createdAt,
        updatedAt: createdAt,
        streamRevision: e.revision,
      };
    }),
    ShareLinkRenamed: links.update(
      (e) => e.data.shareLinkId,
      (doc, e) => touched(doc, e.data.renamedAt, e.revision, { name: e.data.name }),
    ),
    ShareLinkActivated: links.update(
      (e) => e.data.shareLinkId,
      (doc, e) => touched(doc, e.data.activatedAt, e.revision, { active: true }),
    ),
    ShareLinkDeactivated: links.update(
      (e) => e.data.shareLinkId,
      (doc, e) => touched(doc, e.data.deactivatedAt, e.revision, { active: false }),
    ),
    ShareLinkDeleted: links.delete((e) => e.data.shareLinkId),
    SiteDeleted: async (e, ctx) => {
      for (const link of await ctx.find(SHARE_LINKS, { siteId: e.data.siteId }))
        await ctx.delete(SHARE_LINKS, link.id);
    },
  },
);
