/**
 * What GitBook's link listings are made of, from a revision's links: items grouped by target
 * (`ContentReferenceUsage`), their `stats` (`ContentReferencesStats`), and the filters the routes take.
 */
import type { ContentRef } from '@app/documents/document/document';
import { canonicalJson } from '@app/documents/tree/hash';
import {
  LINK_STATUSES,
  type LinkLocation,
  type LinkRelation,
  type LinkStatus,
  type RevisionLink,
} from './links';

/** One target and where it is referenced from: an item of a links listing. */
export interface LinkUsage {
  /** The target's identity (`RevisionLink.key`). */
  key: string;
  /** The resolved target, for `targetReference`. */
  target: ContentRef;
  status: LinkStatus;
  relation: LinkRelation;
  /** For `locationReferences`: each place once, in revision order. */
  locations: Array<{ location: LinkLocation; blockKey?: string }>;
}

/**
 * Links grouped by target and relation, in the order targets first appear. A link and an image to one
 * file are two items: GitBook's item has a single `relation`.
 */
export function linkUsages(links: readonly RevisionLink[]): LinkUsage[] {
  const usages = new Map<string, LinkUsage>();
  const seen = new Set<string>();
  for (const link of links) {
    const id = `${link.relation} ${link.key}`;
    let usage = usages.get(id);
    if (!usage) {
      usage = {
        key: link.key,
        target: link.resolved,
        status: link.status,
        relation: link.relation,
        locations: [],
      };
      usages.set(id, usage);
    }
    const place =
      link.blockKey === undefined
        ? { location: link.location }
        : { location: link.location, blockKey: link.blockKey };
    const placeId = `${id} ${canonicalJson(place)}`;
    if (seen.has(placeId)) continue;
    seen.add(placeId);
    usage.locations.push(place);
  }
  return [...usages.values()];
}

/** GitBook's `ContentReferencesStats`. */
export interface LinkStats {
  total: number;
  broken: { total: number; changeRequest?: number };
}

/**
 * Counts the items given (usages for a listing, so `total` is the listing's `count` before a status
 * filter: compute stats before filtering). With `base` (the links of the revision a change request
 * started from), `broken.changeRequest` counts the broken targets that were not broken there.
 */
export function linkStats(
  items: ReadonlyArray<{ status: LinkStatus; key: string }>,
  base?: ReadonlyArray<{ status: LinkStatus; key: string }>,
): LinkStats {
  const broken = items.filter((item) => item.status === 'broken');
  if (!base) return { total: items.length, broken: { total: broken.length } };
  const before = new Set(base.filter((item) => item.status === 'broken').map((item) => item.key));
  return {
    total: items.length,
    broken: { total: broken.length, changeRequest: broken.filter((item) => !before.has(item.key)).length },
  };
}

/** The items with a status; all of them when none is asked. */
export const withStatus = <T extends { status: LinkStatus }>(
  items: readonly T[],
  status?: LinkStatus,
): T[] => (status === undefined ? [...items] : items.filter((item) => item.status === status));

/** The links located in a page (the page links routes), in document order. */
export const linksInPage = (links: readonly RevisionLink[], pageId: string): RevisionLink[] =>
  links.filter(({ location }) => location.kind === 'page' && location.pageId === pageId);

/** For a route's `status` query parameter. */
export const isLinkStatus = (value: unknown): value is LinkStatus =>
  LINK_STATUSES.includes(value as LinkStatus);
