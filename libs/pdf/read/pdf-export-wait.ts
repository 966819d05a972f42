import type { JobState } from '@app/platform/jobs/job-queue.port';

/** How a download follows the export job that renders its PDF. */
export interface ExportWatch<T> {
  /** The rendered export, once its job stored and named it. */
  stored(): Promise<T | undefined>;
  /** The job's state; a queue that cannot tell (no handler here, Redis away) throws. */
  state(): Promise<JobState>;
  enqueue(): Promise<void>;
}

export interface ExportWaitLimits {
  /** A job not started by then is behind a backlog, or no worker runs it. */
  pickupMs: number;
  /** A started job is waited for up to this, counted from the download's start. */
  runningMs: number;
  /** A job names its export before it finishes; this covers only a look that raced with its end. */
  settleMs: number;
  pollMs: number;
}

export const EXPORT_WAIT_LIMITS: ExportWaitLimits = {
  pickupMs: 3_000,
  runningMs: 15_000,
  settleMs: 1_000,
  pollMs: 50,
};

/**
 * Waits for the export job's PDF; undefined means: render it here. Waiting while the job is on its way
 * renders each export once; giving up as soon as the job will not deliver soon (not picked up, failed,
 * finished without storing it, a queue that cannot tell) keeps every link working whatever the queue does.
 * A job the queue does not know (lost in a restart of the in-process queue) is enqueued again.
 */
export async function awaitExport<T>(
  watch: ExportWatch<T>,
  limits: ExportWaitLimits = EXPORT_WAIT_LIMITS,
  now: () => number = Date.now,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<T | undefined> {
  const start = now();
  let enqueued = false;
  let finishedAt: number | undefined;
  for (;;) {
    const stored = await watch.stored();
    if (stored !== undefined) return stored;
    const state = await watch.state().catch((): JobState => 'failed');
    const waited = now() - start;
    switch (state) {
      case 'unknown':
        if (enqueued) return undefined;
        try {
          await watch.enqueue();
        } catch {
          return undefined;
        }
        enqueued = true;
        break;
      case 'waiting':
      case 'delayed':
        if (waited >= limits.pickupMs) return undefined;
        break;
      case 'active':
        if (waited >= limits.runningMs) return undefined;
        break;
      case 'completed':
        finishedAt ??= now();
        if (now() - finishedAt >= limits.settleMs) return undefined;
        break;
      case 'failed':
        return undefined;
    }
    await sleep(limits.pollMs);
  }
}
