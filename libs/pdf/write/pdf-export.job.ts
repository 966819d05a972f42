import { BLOB_STORE, type BlobStore } from '@app/platform/blobs/blob-store.port';
import { DomainError } from '@app/platform/domain/decider';
import { JobHandler, type JobSource } from '@app/platform/jobs/job-handler';
import { JOB_QUEUE, type Job, type JobLog, type JobQueue } from '@app/platform/jobs/job-queue.port';
import { Inject, Injectable } from '@nestjs/common';
import { PDF_EXPORT_JOB, type PdfExportRequest, pdfExportName } from '../domain/pdf-export';
import { PdfRenderer } from '../read/pdf-renderer';

export interface PdfExportJobData extends PdfExportRequest {
  /** Of the request that asked for the export first (for its log lines); empty when a download did. */
  correlationId: string;
}

/**
 * Renders PDF exports ahead of their download and keeps each as a rendition under the export's name
 * (never a blob: no key reaches it, only a signed link). The outcome is that rendition, not an event: a
 * render changes no domain state, and the log never grows from reading (a GET leaves it as it was). A
 * job run again (a retry, a second worker) finds the rendition and renders nothing; two runs at once
 * keep the same bytes. `PdfCollection` drops renditions once old.
 */
@JobHandler()
@Injectable()
export class PdfExports implements JobSource {
  readonly jobNames = [PDF_EXPORT_JOB];

  constructor(
    @Inject(JOB_QUEUE) private readonly jobs: JobQueue,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    private readonly renderer: PdfRenderer,
  ) {}

  register(): void {
    this.jobs.register<PdfExportJobData>(PDF_EXPORT_JOB, (job, log) => this.render(job, log));
  }

  async render(job: Job<PdfExportJobData>, log: JobLog): Promise<void> {
    const { correlationId: _, ...request } = job.data;
    const name = pdfExportName(request);
    if (await this.blobs.rendition(name)) return;
    let bytes: Uint8Array;
    try {
      bytes = await this.renderer.render(request);
    } catch (error) {
      // Over its budget: another attempt would be too. The download, rendering it, answers why.
      if (error instanceof DomainError && error.kind === 'unprocessable') {
        log.info(`not rendered: ${error.message}`);
        return;
      }
      throw error;
    }
    await this.blobs.putRendition(name, bytes, 'application/pdf');
    log.info(`rendered ${bytes.length} bytes of space ${request.space}`);
  }
}
