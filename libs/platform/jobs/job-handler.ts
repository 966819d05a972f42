import { DiscoveryService } from '@nestjs/core';
import type { Reaction } from '../projector/reactor';

/**
 * A provider that runs jobs: it registers a handler for each of `jobs` with the queue, may start them
 * from the log (a `Reaction`, with ids derived from the causing event), and may sweep the views for work
 * a crash lost. Marked with `@JobHandler()`; the worker finds every marked provider and checks them
 * against the jobs the feature manifests declare.
 */
export interface JobSource extends Partial<Reaction> {
  readonly jobNames: readonly string[];
  register(): void;
  /** Re-enqueues due work that a crash may have lost; returns how many jobs. */
  sweep?(): Promise<number>;
}

export const JobHandler = DiscoveryService.createDecorator<void>();

export function isReaction(source: JobSource): source is JobSource & Reaction {
  return typeof source.react === 'function' && source.name !== undefined && source.handles !== undefined;
}

/**
 * Problems with the job handlers found against the jobs the manifests declare: a declared job without a
 * handler, a job with two, or a handled job nobody declared. The worker refuses to start on any.
 */
export function jobHandlerProblems(declared: readonly string[], sources: readonly JobSource[]): string[] {
  const handlers = new Map<string, number>();
  for (const source of sources)
    for (const job of source.jobNames) handlers.set(job, (handlers.get(job) ?? 0) + 1);
  const problems: string[] = [];
  for (const job of declared) {
    const count = handlers.get(job) ?? 0;
    if (count !== 1) problems.push(`job ${job} has ${count} handlers; it needs exactly one`);
  }
  for (const job of handlers.keys())
    if (!declared.includes(job))
      problems.push(`job ${job} has a handler but no feature manifest declares it`);
  return problems;
}
