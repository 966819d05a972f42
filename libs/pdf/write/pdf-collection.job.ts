import { BLOB_STORE, type BlobStore } from '@app/platform/blobs/blob-store.port';
import { CLOCK, type Clock } from '@app/platform/clock/clock';
import { type Config, DEFAULT_PDF } from '@app/platform/config/config';
import { CONFIG } from '@app/platform/config/config.module';
import { JobHandler, type JobSource } from '@app/platform/jobs/job-handler';
import { JOB_QUEUE, type JobLog, type JobQueue } from '@app/platform/jobs/job-queue.port';
import { Inject, Injectable } from '@nestjs/common';
import { PDF_COLLECT_JOB, pdfCollectJobId } from '../domain/pdf-export';

/**
 * Collects the stored PDFs rendered more than PDF_KEEP_MS ago (by default the hour a link works, and an
 * hour more): an export is a pure function of its name, so a download after that renders it again. The
 * worker's periodic sweep enqueues the job, one per period (`pdfCollectJobId`) however many workers
 * sweep; running it again, or two at once, drops nothing more.
 */
@JobHandler()
@Injectable()
export class PdfCollection implements JobSource {
  readonly jobNames = [PDF_COLLECT_JOB];
  private readonly keepMs: number;

  constructor(
    @Inject(JOB_QUEUE) private readonly jobs: JobQueue,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CONFIG) config: Config,
  ) {
    this.keepMs = (config.pdf ?? DEFAULT_PDF).keepMs;
  }

  register(): void {
    this.jobs.register(PDF_COLLECT_JOB, (_job, log) => this.collect(log));
  }

  async sweep(): Promise<number> {
    await this.jobs.enqueue(PDF_COLLECT_JOB, {}, { jobId: pdfCollectJobId(this.clock.now()), attempts: 3 });
    return 1;
  }

  async collect(log: JobLog): Promise<void> {
    const dropped = await this.blobs.dropRenditionsBefore(this.clock.now() - this.keepMs);
    if (dropped > 0) log.info(`collected ${dropped} stored PDF exports`);
  }
}
