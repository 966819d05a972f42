/** A revision's links and their status, file backlinks, the parts of GitBook's link listings, and embeds. */
export { type LinkEmbed, linkEmbed } from './embed';
export {
  type Backlink,
  fileBacklinks,
  LINK_STATUSES,
  type LinkLocation,
  type LinkOptions,
  type LinkRelation,
  type LinkStatus,
  type RevisionLink,
  revisionLinks,
} from './links';
export {
  isLinkStatus,
  type LinkStats,
  type LinkUsage,
  linkStats,
  linksInPage,
  linkUsages,
  withStatus,
} from './listing';
