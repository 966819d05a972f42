import { Worker } from 'node:worker_threads';
import type { RebuildOptions, RebuildProgress } from '@app/platform/projector/projector';
import { compiledScript } from '@app/platform/threads/compiled-script';
import type { StorageConfig } from './storage';

export interface RebuildRequest {
  storage: StorageConfig;
  options: RebuildOptions;
}

export type RebuildMessage =
  | { type: 'progress'; position: number; head: number; applied: number }
  | { type: 'done'; applied: number }
  | { type: 'failed'; message: string };

/**
 * Young generation of the rebuild's thread (MB; V8 splits it into two semi-spaces and a large-object
 * space, so 192 gives semi-spaces of 64 MB). A rebuild allocates a batch's events and documents at a
 * high rate, and each scavenge costs about as much whatever the young generation's size: four times
 * fewer of them took B5 from ~23 s to ~21 s, for ~170 MB more memory at its peak.
 */
const YOUNG_GENERATION_MB = 192;

/**
 * Rebuilds every view, or `options.projection`, on a thread of its own, as `Projector.rebuild` does
 * (the views switch over once it has caught up), and resolves with the number of events replayed. On a
 * thread because only a thread can be given its own young generation, which a rebuild needs larger than
 * a server does; the compiled worker script comes from dist/.
 */
export function rebuildOnThread(
  storage: StorageConfig,
  options: RebuildOptions,
  onProgress?: RebuildProgress,
): Promise<number> {
  const script = compiledScript(__dirname, 'rebuild-worker.js');
  if (!script) return Promise.reject(new Error('the rebuild runs compiled code: run `npm run build` first'));
  // Where the stores are, and nothing else of the configuration, crosses to the thread.
  const { dataDir, eventstoreUrl, mongoUrl } = storage;
  const request: RebuildRequest = { storage: { dataDir, eventstoreUrl, mongoUrl }, options };
  const worker = new Worker(script, {
    workerData: request,
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
  });
  return new Promise<number>((resolve, reject) => {
    let outcome: { applied: number } | { error: Error } | undefined;
    worker.on('message', (message: RebuildMessage) => {
      if (message.type === 'progress') onProgress?.(message.position, message.head, message.applied);
      else if (message.type === 'done') outcome = { applied: message.applied };
      else outcome = { error: new Error(message.message) };
    });
    worker.on('error', (error) => {
      outcome ??= { error };
    });
    // Settled once the thread has closed its stores and ended.
    worker.on('exit', (code) => {
      if (outcome && 'applied' in outcome) resolve(outcome.applied);
      else reject(outcome?.error ?? new Error(`the rebuild thread exited (code ${code})`));
    });
  });
}
