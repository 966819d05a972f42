import { type Config, DEFAULT_PDF, type PdfConfig } from '@app/platform/config/config';
import { CONFIG } from '@app/platform/config/config.module';
import { DomainError } from '@app/platform/domain/decider';
import { requiredScript } from '@app/platform/threads/compiled-script';
import { TaskFailed, WorkerPool } from '@app/platform/threads/worker-pool';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { PdfOptions, PdfPage } from '../domain';

/** Renders waiting for a thread at most: each export renders once, so more are a flood, answered 503. */
const WAITING_RENDERS = 64;

/** What a render thread is handed: the pages with their documents, and the PDF's options. */
export interface PdfRenderTask {
  pages: PdfPage[];
  options: PdfOptions;
}

/**
 * Renders PDFs on a few worker threads (`pdf-render-worker.ts`, compiled: beside this module in dist/,
 * or the build in dist/ when this module runs from source), each render within the configured time and
 * heap: rendering is CPU work of seconds for a large space, which would hold the serving thread (and,
 * in standalone mode, the in-process jobs) all along. A render over its budget ends its thread and is
 * refused with a 422. Shutting down terminates the threads whatever they are doing.
 */
@Injectable()
export class PdfThreads implements OnModuleDestroy {
  private readonly config: PdfConfig;
  /** No thread runs before the first render. */
  private readonly pool: WorkerPool<PdfRenderTask, Uint8Array>;

  constructor(@Inject(CONFIG) config: Config) {
    this.config = config.pdf ?? DEFAULT_PDF;
    this.pool = new WorkerPool({
      script: requiredScript(__dirname, 'pdf-render-worker.js', 'PDF exports'),
      size: this.config.threads,
      timeoutMs: this.config.timeoutMs,
      resourceLimits: { maxOldGenerationSizeMb: this.config.heapMb },
      maxWaiting: WAITING_RENDERS,
    });
  }

  async render(task: PdfRenderTask): Promise<Uint8Array> {
    try {
      return await this.pool.run(task);
    } catch (error) {
      if (!(error instanceof TaskFailed)) throw error;
      switch (error.reason) {
        case 'timeout':
          throw new DomainError(
            'unprocessable',
            `This export takes longer than ${this.config.timeoutMs} ms to render; export a part of it (a page)`,
          );
        case 'memory':
          throw new DomainError(
            'unprocessable',
            `This export needs more than ${this.config.heapMb} MB to render; export a part of it (a page)`,
          );
        case 'busy':
          throw new DomainError('unavailable', 'The server is rendering too many exports; retry shortly');
        case 'closed':
          throw new DomainError('unavailable', 'The server is shutting down; retry shortly');
        case 'failed':
          throw new Error(`rendering a PDF failed: ${error.message}`);
      }
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool.close();
  }
}
