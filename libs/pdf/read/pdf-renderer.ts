import { ContentObjectStore, REVISIONS } from '@app/content/content.api';
import type { Document } from '@app/documents/document';
import { getDocument, listPages, type PageNode } from '@app/documents/tree/page-tree';
import { notFound } from '@app/platform/domain/decider';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { Inject, Injectable } from '@nestjs/common';
import { flattenPages } from '../domain';
import type { PdfExportRequest } from '../domain/pdf-export';
import { PdfThreads } from './pdf-threads';

/**
 * Renders an export from the views and the content objects: the same bytes for the same request. This
 * thread loads the pages and their documents; a render thread lays them out (`PdfThreads`).
 */
@Injectable()
export class PdfRenderer {
  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    private readonly objects: ContentObjectStore,
    private readonly threads: PdfThreads,
  ) {}

  async render(request: PdfExportRequest): Promise<Uint8Array> {
    const revision = await this.views.get(REVISIONS, request.revision);
    if (!revision || revision.space !== request.space)
      throw notFound('This link is not valid, or has expired');
    let nodes = await listPages(this.objects, revision.root);
    if (request.page) {
      const found = findNode(nodes, request.page);
      if (!found) throw notFound('Page not found');
      nodes = [request.only ? { ...found, pages: [] } : found];
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
    return this.threads.render({
      pages,
      options: { title: request.title || 'Untitled', createdAt: new Date(revision.createdAt) },
    });
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
