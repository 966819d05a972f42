import type { Document } from '@app/documents/document';
import {
  type ConversionResult,
  type ConversionTask,
  DocumentConversions,
} from '@app/documents/document/conversions';
import { plainTextDocument, plainTextMarkdown } from '@app/documents/document/from-markdown';
import { type MarkdownLimits, markdownProblem } from '@app/documents/document/markdown-limits';
import { documentToMarkdown } from '@app/documents/document/to-markdown';
import { type ConversionConfig, DEFAULT_CONVERSIONS } from '@app/platform/config/config';
import { DomainError, invalid } from '@app/platform/domain/decider';
import { requiredScript } from '@app/platform/threads/compiled-script';
import { TaskFailed, WorkerPool } from '@app/platform/threads/worker-pool';
import type { OnModuleDestroy } from '@nestjs/common';

/**
 * Each thread's young generation, in MB (V8's default is 48 on 64 bits). A conversion's garbage is short
 * lived: a smaller young generation is collected more often, each time as cheaply, with no measured cost
 * in time (an import of 1,800 pages took as long), and each thread keeps about 25 MB less: the server's
 * peak RSS during that import fell from about 490 MB to about 430 MB.
 */
const YOUNG_GENERATION_MB = 12;

/**
 * Conversions handed to a thread ahead of its answers: most are small (a comment, a page), and under
 * load a thread would otherwise wait for the serving thread to read each answer before its next one
 * (comments posted with 100 connections: 313 a second, against 980 with document bodies).
 */
export const CONVERSION_DEPTH = 4;

/**
 * Page bodies converted on a few worker threads (`conversion-worker.ts`, compiled: beside this module in
 * dist/, or the build in dist/ when this module runs from source), each within the configured time and
 * heap, after the cheap pass over the Markdown (`markdownProblem`) that refuses costly shapes at once,
 * here. A conversion over its budget ends its thread (another is started for the next one) and is
 * refused like a bad shape: a DomainError whose message the caller prefixes with the field. Shutting
 * down terminates the threads whatever they are doing (Nest calls `onModuleDestroy` before it closes
 * the HTTP server, so a request waiting on a conversion is answered rather than waited for).
 */
export class PooledConversions extends DocumentConversions implements OnModuleDestroy {
  private readonly limits: MarkdownLimits;
  /** No thread runs before the first conversion: a process that converts nothing starts none. */
  private readonly pool: WorkerPool<ConversionTask, ConversionResult>;

  constructor(private readonly config: ConversionConfig = DEFAULT_CONVERSIONS) {
    super();
    const { threads, timeoutMs, heapMb, maxWaiting, ...limits } = config;
    this.limits = limits;
    this.pool = new WorkerPool({
      script: requiredScript(__dirname, 'conversion-worker.js', 'conversions'),
      size: threads,
      timeoutMs,
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
      maxWaiting,
      depth: CONVERSION_DEPTH,
    });
  }

  async markdownToJson(markdown: string): Promise<string> {
    return (await this.fromMarkdown(markdown, false)).json;
  }

  async markdownToJsonAndBack(markdown: string): Promise<{ json: string; markdown: string }> {
    const result = await this.fromMarkdown(markdown, true);
    if (result.markdown === undefined) throw new Error('a conversion and back answered no Markdown');
    return { json: result.json, markdown: result.markdown };
  }

  /** Plain text (a sentence) is read where it is asked for, in microseconds; anything else on a thread. */
  private async fromMarkdown(
    markdown: string,
    andBack: boolean,
  ): Promise<{ json: string; markdown?: string }> {
    const plain = plainTextDocument(markdown);
    if (plain) {
      const json = JSON.stringify(plain);
      if (!andBack) return { json };
      return { json, markdown: plainTextMarkdown(markdown) ?? documentToMarkdown(plain.document) };
    }
    const problem = markdownProblem(markdown, this.limits);
    if (problem) throw invalid(problem);
    const result = await this.run({ kind: 'markdown-to-document', markdown, limits: this.limits, andBack });
    if (!('json' in result)) throw new Error('a conversion to a document answered Markdown');
    return result;
  }

  async documentToMarkdown(document: Document): Promise<string> {
    const result = await this.run({ kind: 'document-to-markdown', document, limits: this.limits });
    if ('json' in result) throw new Error('a conversion to Markdown answered a document');
    return result.markdown;
  }

  private async run(task: ConversionTask): Promise<ConversionResult> {
    try {
      return await this.pool.run(task);
    } catch (error) {
      if (!(error instanceof TaskFailed)) throw error;
      switch (error.reason) {
        case 'timeout':
          throw invalid(`takes longer than ${this.config.timeoutMs} ms to convert`);
        case 'memory':
          throw invalid(`needs more than ${this.config.heapMb} MB to convert`);
        case 'failed':
          throw invalid(error.message);
        case 'busy':
          throw new DomainError('unavailable', 'The server is converting too many documents: retry shortly');
        case 'closed':
          throw error;
      }
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool.close();
  }
}
