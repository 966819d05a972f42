import {
  ContentObjectStore,
  type ContentSource,
  ContentSources,
  RevisionPresentation,
  SOURCE_PATTERN,
} from '@app/content/content.api';
import type { ContentRef } from '@app/documents/document';
import type { Hash } from '@app/documents/tree/hash';
import { getFile, getPage, getReusableContent } from '@app/documents/tree/page-tree';
import type { Viewer } from '@app/platform/auth/access';
import { notFound } from '@app/platform/domain/decider';
import { type ListQuery, offsetPage } from '@app/platform/http/pagination';
import { Urls } from '@app/platform/http/urls';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { Injectable } from '@nestjs/common';
import {
  fileBacklinks,
  type LinkLocation,
  type LinkStatus,
  type LinkUsage,
  linkStats,
  linksInPage,
  linkUsages,
  type RevisionLink,
  revisionLinks,
  withStatus,
} from '../domain';

export interface LinksQuery extends ListQuery {
  status?: LinkStatus;
}

const source = () => arg.text('source', SOURCE_PATTERN, 'space, cr:<id> or rev:<id>');
const DEFAULT_LIMIT = 50;
/** Revisions whose links are kept: a revision never changes, so its links are computed once. */
const KEPT = 64;

type Place = { organization: string; space: string; root: Hash };

/**
 * Links and backlinks of a revision (GitBook's links listings, with `stats`, and file backlinks). The
 * links of a revision are found by reading every document once, then kept by content root.
 */
@Injectable()
export class LinkQueries {
  private readonly kept = new Map<Hash, Promise<RevisionLink[]>>();

  constructor(
    private readonly content: ContentSources,
    private readonly objects: ContentObjectStore,
    private readonly presenter: RevisionPresentation,
    private readonly urls: Urls,
  ) {}

  /** Every link of the revision, grouped by target; `status` filters the items, never `stats`. */
  @Remote(arg.id('spaceId'), source(), arg.object<LinksQuery>('query'), arg.viewer())
  async spaceLinks(spaceId: string, from: ContentSource, query: LinksQuery, viewer: Viewer) {
    const place = await this.place(spaceId, from, viewer);
    return this.listing(place, linkUsages(await this.links(place)), query);
  }

  @Remote(arg.id('spaceId'), source(), arg.id('pageId'), arg.object<LinksQuery>('query'), arg.viewer())
  async pageLinks(spaceId: string, from: ContentSource, pageId: string, query: LinksQuery, viewer: Viewer) {
    const place = await this.place(spaceId, from, viewer);
    if (!(await getPage(this.objects, place.root, pageId))) throw notFound('Page not found');
    return this.listing(place, linkUsages(linksInPage(await this.links(place), pageId)), query);
  }

  /** The pages and reusable contents that reference a file. */
  @Remote(arg.id('spaceId'), source(), arg.id('fileId'), arg.object<ListQuery>('query'), arg.viewer())
  async fileBacklinks(
    spaceId: string,
    from: ContentSource,
    fileId: string,
    query: ListQuery,
    viewer: Viewer,
  ) {
    const place = await this.place(spaceId, from, viewer);
    if (!(await getFile(this.objects, place.root, fileId))) throw notFound('File not found');
    const backlinks = await fileBacklinks(this.objects, place.root, fileId, { spaceId });
    const { items, next } = offsetPage(backlinks, query, DEFAULT_LIMIT);
    return {
      ...next,
      count: backlinks.length,
      items: await Promise.all(items.map((b) => this.location(place, b.location, b.blockKey))),
    };
  }

  private async place(spaceId: string, from: ContentSource, viewer: Viewer): Promise<Place> {
    const { root, scope } = await this.content.resolveSource(spaceId, from, viewer);
    return { organization: scope.organization, space: spaceId, root };
  }

  private links(place: Place): Promise<RevisionLink[]> {
    let links = this.kept.get(place.root);
    if (!links) {
      links = revisionLinks(this.objects, place.root, { spaceId: place.space, appUrls: [this.urls.app('')] });
      this.kept.set(place.root, links);
      if (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value as Hash);
      links.catch(() => this.kept.delete(place.root));
    }
    return links;
  }

  private async listing(place: Place, usages: LinkUsage[], query: LinksQuery) {
    const shown = withStatus(usages, query.status);
    const { items, next } = offsetPage(shown, query, DEFAULT_LIMIT);
    return {
      ...next,
      count: shown.length,
      stats: linkStats(usages),
      items: await Promise.all(items.map((usage) => this.usage(place, usage))),
    };
  }

  /** GitBook's `ContentReferenceUsage`. */
  private async usage(place: Place, usage: LinkUsage) {
    const target = await this.target(place, usage.target);
    return {
      status: usage.status,
      relation: usage.relation,
      locationReferences: await Promise.all(
        usage.locations.map(({ location, blockKey }) => this.location(place, location, blockKey)),
      ),
      ...(target ? { targetReference: target } : {}),
    };
  }

  /** GitBook's `ContentLocation` of where a link is. */
  private async location(place: Place, location: LinkLocation, blockKey?: string) {
    const internal =
      blockKey === undefined ? {} : { internalLocation: { type: 'node' as const, node: blockKey } };
    if (location.kind === 'page') {
      const page = await getPage(this.objects, place.root, location.pageId);
      return {
        kind: 'page' as const,
        organization: place.organization,
        space: place.space,
        page: page
          ? this.presenter.pageTree([{ ...page, pages: [] }], {
              spaceId: place.space,
              organization: place.organization,
            })[0]
          : { id: location.pageId },
        ...internal,
      };
    }
    const reusable = await getReusableContent(this.objects, place.root, location.reusableContentId);
    return {
      kind: 'reusable-content' as const,
      organization: place.organization,
      space: place.space,
      reusableContent: reusable
        ? this.presenter.reusableContent(reusable)
        : { id: location.reusableContentId },
    };
  }

  /** Where a link points, when that is a place of this revision or a URL; nothing for other spaces. */
  private async target(place: Place, ref: ContentRef) {
    switch (ref.kind) {
      case 'url':
        return { kind: 'url' as const, url: ref.url };
      case 'page':
      case 'anchor': {
        if (ref.kind === 'page' && ref.space) return undefined;
        const pageId = ref.page;
        if (!pageId) return undefined;
        const page = await getPage(this.objects, place.root, pageId);
        return page ? this.location(place, { kind: 'page', pageId }) : undefined;
      }
      case 'file': {
        const file = await getFile(this.objects, place.root, ref.file);
        return file
          ? {
              kind: 'file' as const,
              organization: place.organization,
              space: place.space,
              file: this.presenter.file(file),
            }
          : undefined;
      }
      case 'reusable-content': {
        const found = await getReusableContent(this.objects, place.root, ref.reusableContent);
        return found
          ? this.location(place, { kind: 'reusable-content', reusableContentId: found.id })
          : undefined;
      }
      default:
        return undefined;
    }
  }
}
