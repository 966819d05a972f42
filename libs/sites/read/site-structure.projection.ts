import type { RecordedEvent } from '@app/platform/eventstore/event-store.port';
import { documents, type ProjectionContext, projection } from '@app/platform/projector/projection';
import { collectionName, type Doc } from '@app/platform/readstore/read-store.port';
import { evolveStructure, type SiteEvent } from '../domain/site.decider';
import { allSiteSpaces, EMPTY_STRUCTURE, type Structure } from '../domain/site-structure';
import { SITES } from './site.projection';

/** A site's sections and site spaces, in order: what its structure, sections and site spaces read. */
export interface SiteStructureDoc extends Doc {
  organization: string;
  structure: Structure;
  /** Revision of the site's stream. */
  streamRevision: number;
}

/** One site space, where it is and the space it publishes: which sites hold a space. */
export interface SiteSpaceDoc extends Doc {
  siteId: string;
  organization: string;
  spaceId: string;
  section: string | null;
}

export const SITE_STRUCTURES = collectionName<SiteStructureDoc>('site_structures');
export const SITE_SPACES = collectionName<SiteSpaceDoc>('site_spaces');

const structures = documents(SITE_STRUCTURES);

type StructureEvent = Extract<SiteEvent, { type: `SiteSpace${string}` | `SiteSection${string}` }>;

/** The site spaces an event places, changes or removes. */
function touched(event: StructureEvent): string[] {
  switch (event.type) {
    case 'SiteSpaceAdded':
      return [event.data.siteSpace.id];
    case 'SiteSpaceUpdated':
    case 'SiteSpaceRemoved':
    case 'SiteSpaceMoved':
      return [event.data.siteSpaceId];
    case 'SiteSectionAdded':
      return event.data.section.siteSpaces.map((s) => s.id);
    case 'SiteSectionRemoved':
      return event.data.siteSpaces;
    default:
      return [];
  }
}

/**
 * Evolves the site's structure as its decider does, and writes the document of each site space the event
 * touches from the structure after it: the same writes however often the event is applied.
 */
async function restructure(event: RecordedEvent, ctx: ProjectionContext): Promise<void> {
  const change = event as unknown as RecordedEvent & StructureEvent;
  const { siteId, organization } = change.data;
  const doc = await ctx.get(SITE_STRUCTURES, siteId);
  if (!doc) return;
  const structure = evolveStructure(doc.structure, change);
  await ctx.put(SITE_STRUCTURES, { ...doc, structure, streamRevision: event.revision });
  const after = new Map(allSiteSpaces(structure).map((found) => [found.entry.id, found]));
  for (const id of touched(change)) {
    const found = after.get(id);
    if (!found) await ctx.delete(SITE_SPACES, id);
    else {
      const { entry, section } = found;
      const siteSpace = { id, siteId, organization, spaceId: entry.spaceId, section: section ?? null };
      await ctx.put(SITE_SPACES, siteSpace);
    }
  }
}

/** The structure of each site; a deleted site's is gone with it. */
const structureProjection = projection<SiteEvent>(
  'site-structures',
  [
    { collection: SITE_SPACES, fields: ['spaceId'] },
    { collection: SITE_SPACES, fields: ['siteId'] },
  ],
  {
    SiteCreated: structures.put((e) => ({
      id: e.data.siteId,
      organization: e.data.organization,
      structure: EMPTY_STRUCTURE,
      streamRevision: e.revision,
    })),
    SiteSpaceAdded: restructure,
    SiteSpaceUpdated: restructure,
    SiteSpaceRemoved: restructure,
    SiteSpaceMoved: restructure,
    SiteSectionAdded: restructure,
    SiteSectionUpdated: restructure,
    SiteSectionRemoved: restructure,
    SiteSectionMoved: restructure,
    SiteSectionGroupAdded: restructure,
    SiteSectionGroupUpdated: restructure,
    SiteSectionGroupRemoved: restructure,
    SiteSectionGroupMoved: restructure,
    SiteDeleted: async (e, ctx) => {
      for (const siteSpace of await ctx.find(SITE_SPACES, { siteId: e.data.siteId }))
        await ctx.delete(SITE_SPACES, siteSpace.id);
      await ctx.delete(SITE_STRUCTURES, e.data.siteId);
    },
  },
  [SITE_STRUCTURES, SITE_SPACES],
);

/** Added after sites: an install with sites and no structures builds them from the log first. */
export const siteStructureProjection = {
  ...structureProjection,
  backfillWhen: { own: SITE_STRUCTURES, witnesses: [SITES] },
};
