import {
  ContentObjectStore,
  type ContentSource,
  ContentSources,
  REVISIONS,
  SOURCE_PATTERN,
} from '@app/content/content.api';
import { getPage } from '@app/documents/tree/page-tree';
import type { Viewer } from '@app/platform/auth/access';
import { BLOB_STORE, type BlobStore } from '@app/platform/blobs/blob-store.port';
import { CLOCK, type Clock } from '@app/platform/clock/clock';
import { PDF_LINK_LIFETIME_MS } from '@app/platform/config/config';
import { notFound } from '@app/platform/domain/decider';
import { SignedLinks } from '@app/platform/http/signed-links';
import { Urls } from '@app/platform/http/urls';
import { JOB_QUEUE, type JobQueue } from '@app/platform/jobs/job-queue.port';
import { READ_STORE, type ReadStore } from '@app/platform/readstore/read-store.port';
import { arg, Remote } from '@app/platform/rpc/remote-method';
import { SPACES } from '@app/spaces/read/space.projection';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { PDF_EXPORT_JOB, type PdfExportRequest, pdfExportName } from '../domain/pdf-export';
import { awaitExport } from './pdf-export-wait';
import { PdfRenderer } from './pdf-renderer';

export interface PdfQuery {
  page?: string;
  only?: boolean;
}

/**
 * PDF exports: a signed link to the content as it is now (the revision is fixed in the link), which
 * needs no token. A job renders the PDF as soon as the link is handed out and keeps it as a rendition
 * (which no blob key reaches); the download serves the kept bytes (see `awaitExport` for when it
 * renders them itself, and keeps them: after a collection, a job that already ran is not run again).
 */
@Injectable()
export class PdfQueries {
  private readonly logger = new Logger('pdf-exports');

  constructor(
    @Inject(READ_STORE) private readonly views: ReadStore,
    private readonly content: ContentSources,
    private readonly objects: ContentObjectStore,
    private readonly links: SignedLinks,
    private readonly urls: Urls,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly renderer: PdfRenderer,
    @Inject(JOB_QUEUE) private readonly jobs: JobQueue,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
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
    const claims = {
      space: spaceId,
      revision: revision.id,
      ...(query.page ? { page: query.page, only: query.only === true } : {}),
    };
    const token = this.links.sign(claims, this.clock.now() + PDF_LINK_LIFETIME_MS);
    const space = await this.views.get(SPACES, spaceId);
    // Enqueued here, not from the log: no domain state changes and the id names what it renders, so a lost
    // enqueue costs only a render at download. Not awaited: a link never waits for the queue (Redis away).
    this.enqueue({ ...claims, title: space?.title ?? '' }, viewer.correlationId).catch(() => undefined);
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
    const request: PdfExportRequest = {
      space: claims.space,
      revision: claims.revision,
      ...(claims.page ? { page: claims.page, only: claims.only === true } : {}),
      title: space.title ?? '',
    };
    const name = pdfExportName(request);
    const stored = await awaitExport({
      stored: () => this.blobs.rendition(name),
      state: () => this.jobs.state(PDF_EXPORT_JOB, name),
      enqueue: () => this.enqueue(request, ''),
    });
    const bytes = stored?.bytes ?? (await this.renderAndKeep(name, request));
    return {
      pdf: Buffer.from(bytes).toString('base64'),
      filename: `${(space.title || 'space').replace(/[^\w.-]+/g, '-')}.pdf`,
    };
  }

  private async renderAndKeep(name: string, request: PdfExportRequest): Promise<Uint8Array> {
    const bytes = await this.renderer.render(request);
    // Served whether or not it is kept: keeping it spares the next download a render.
    await this.blobs.putRendition(name, bytes, 'application/pdf').catch((error: Error) => {
      this.logger.warn(`PDF export ${name} not kept: ${error.message}`);
    });
    return bytes;
  }

  /** Starts the export's job; one job per export, however many links and downloads ask. */
  private async enqueue(request: PdfExportRequest, correlationId: string): Promise<void> {
    const jobId = pdfExportName(request);
    try {
      await this.jobs.enqueue(PDF_EXPORT_JOB, { ...request, correlationId }, { jobId, attempts: 3 });
    } catch (error) {
      this.logger.warn(`PDF export ${jobId} not enqueued: ${(error as Error).message}`);
      throw error;
    }
  }
}
