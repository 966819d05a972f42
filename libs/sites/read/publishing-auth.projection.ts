import { projection } from '@app/platform/projector/projection';
import { collectionName, type Doc } from '@app/platform/readstore/read-store.port';
import type { PublishingAuthEvent, PublishingAuthState } from '../domain/publishing-auth.decider';
import type { SiteEvent } from '../domain/site.decider';

/** A site's publishing auth, by site id; a site without one has the defaults (`DEFAULT_PUBLISHING_AUTH`). */
export interface PublishingAuthDoc extends Doc, PublishingAuthState {
  organization: string;
  /** Revision of the site's publishing auth stream: its ETag. */
  streamRevision: number;
}

export const PUBLISHING_AUTHS = collectionName<PublishingAuthDoc>('site_publishing_auths');

/** What each site's publishing auth is now; gone with its site. */
export const publishingAuthProjection = projection<PublishingAuthEvent | SiteEvent>(
  'site-publishing-auths',
  [],
  {
    SitePublishingAuthUpdated: async (e, ctx) => {
      const { siteId, organization, backend, fallbackURL, logoutURL } = e.data;
      const before = await ctx.get(PUBLISHING_AUTHS, siteId);
      await ctx.put(PUBLISHING_AUTHS, {
        id: siteId,
        organization,
        keyGeneration: before?.keyGeneration ?? 0,
        backend,
        fallbackURL,
        logoutURL,
        streamRevision: e.revision,
      });
    },
    SitePublishingAuthKeyRegenerated: async (e, ctx) => {
      const { siteId, organization, keyGeneration } = e.data;
      const before = await ctx.get(PUBLISHING_AUTHS, siteId);
      await ctx.put(PUBLISHING_AUTHS, {
        id: siteId,
        organization,
        backend: before?.backend ?? 'custom',
        fallbackURL: before?.fallbackURL ?? null,
        logoutURL: before?.logoutURL ?? null,
        keyGeneration,
        streamRevision: e.revision,
      });
    },
    SiteDeleted: async (e, ctx) => {
      await ctx.delete(PUBLISHING_AUTHS, e.data.siteId);
    },
  },
  ['site_publishing_auths'],
);
