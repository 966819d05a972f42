import type { Viewer } from '@app/platform/auth/access';
import { CLOCK, type Clock } from '@app/platform/clock/clock';
import { notFound } from '@app/platform/domain/decider';
import { SignedLinks } from '@app/platform/http/signed-links';
import { Urls } from '@app/platform/http/urls';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { SPACES } from '@app/spaces/read/space.projection';
import { Inject, Injectable } from '@nestjs/common';
import type { Document } from '../domain/document';
import { flattenPages, renderPdf } from '../domain/pdf';
import { getDocument, getPage, listPages, type PageNode } from '../domain/tree/page-tree';
import { ContentQueries, type ContentSource, SOURCE_PATTERN } from './content.queries';
import { ContentObjects } from './content-store';
import { REVISIONS } from './revision.projection';

export interface PdfQuery {
  page?: string;
  only?: boolean;
}

/** GitBook's links work for an hour. */
const LINK_LIFETIME_MS = 60 * 60 * 1000;

/**
 * PDF exports: a signed link to the content as it is now (the revision is fixed in the link), which
 * needs no token; the PDF is rendered when the link is followed, the same bytes for the same revision.
 */
@Injectable()
export class PdfQueries {
  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    private readonly content: ContentQueries,
    private readonly objects: ContentObjects,
    private readonly links: SignedLinks,
    private readonly urls: Urls,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Remote(
    arg.id('spaceId'),
    arg.text('source', SOURCE_PATTERN, 'space, cr:<id> or rev:<id>'),
    arg.object<PdfQuery>('query'),
    arg.viewer(),
  )
  async link(spaceId: string, from: ContentSource, query: PdfQuery, viewer: Viewer) {
    const { revision, root } = await this.content.resolveSource(spaceId, from, viewer);
    if (query.page && !(await getPage(this.objects, root, query.page))) throw notFound('Page not found');
    const token = this.links.sign(
      {
        space: spaceId,
        revision: revision.id,
        ...(query.page ? { page: query.page, only: query.only === true } : {}),
      },
      this.clock.now() + LINK_LIFETIME_MS,
    );
    return { url: this.urls.api(`/downloads/pdf?token=${token}`) };
  }

  /** The PDF a link names, base64 (it crosses the internal transport as JSON). */
  @Remote(arg.text('token', /^[A-Za-z0-9_-]{1,2048}\.[A-Za-z0-9_-]{43}$/, 'a signed link'))
  async render(token: string): Promise<{ pdf: string; filename: string }> {
    const claims = this.links.verify(token, this.clock.now()) as {
      space: string;
      revision: string;
      page?: string;
      only?: boolean;
    };
    const [space, revision] = await Promise.all([
      this.views.get(SPACES, claims.space),
      this.views.get(REVISIONS, claims.revision),
    ]);
    if (!space || !revision || revision.space !== space.id)
      throw notFound('This link is not valid, or has expired');
    let nodes = await listPages(this.objects, revision.root);
    if (claims.page) {
      const found = findNode(nodes, claims.page);
      if (!found) throw notFound('Page not found');
      nodes = [claims.only ? { ...found, pages: [] } : found];
    }
    const pages = await Promise.all(
      flattenPages(nodes).map(async ({ title, depth, documentId }) => ({
        title,
        depth,
        ...(documentId
          ? { document: (await getDocument(this.objects, documentId)) as unknown as Document }
          : {}),
      })),
    );
    const bytes = await renderPdf(pages, {
      title: space.title || 'Untitled',
      createdAt: new Date(revision.createdAt),
    });
    return {
      pdf: Buffer.from(bytes).toString('base64'),
      filename: `${(space.title || 'space').replace(/[^\w.-]+/g, '-')}.pdf`,
    };
  }
}

function findNode(nodes: PageNode[], id: string): PageNode | undefined {
  for (const node of nodes) {
    if (node.id === id) return node;
    const below = findNode(node.pages, id);
    if (below) return below;
  }
  return undefined;
}
