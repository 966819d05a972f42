import {
  checkpointBeyondHead,
  type EventStore,
  SubscriptionFailedError,
} from '../eventstore/event-store.port';
import type { JobQueue } from '../jobs/job-queue.port';
import { CHECKPOINT } from '../projector/projector';
import type { ReadStore } from '../readstore/read-store.port';
import { MeteredEventStore } from './metered-event-store';
import { isCountingQueue } from './metrics';

export const READINESS_TIMEOUT_MS = 2000;

/** Resolves with details to report when the dependency answers; rejects (or hangs) when it does not. */
export type Probe = () => Promise<Record<string, unknown>>;

export type DependencyStatus =
  | ({ status: 'up' } & Record<string, unknown>)
  | { status: 'down'; reason: 'error' | 'timeout' }
  /** Stopped for good (a `SubscriptionFailedError`, whose message is meant to be shown): waiting will not help. */
  | { status: 'failed'; reason: string };

export interface Readiness {
  /** `failed` when a check failed for good; `unavailable` when one is down, which may pass. */
  status: 'ready' | 'unavailable' | 'failed';
  checks: Record<string, DependencyStatus>;
}

/** A thread a process's storage depends on (the standalone server's storage thread). */
export interface StorageThreadState {
  active(): boolean;
  checkpoint(): number;
  /** What stopped the thread's projector for good (a `SubscriptionFailedError`), if anything. */
  failure(): Error | undefined;
}

/** The probes of the storage ports a process holds. */
export function storageProbes(ports: {
  events?: EventStore;
  views?: ReadStore;
  jobs?: JobQueue;
  thread?: StorageThreadState;
}) {
  const probes: Record<string, Probe> = {};
  const { events, views, jobs, thread } = ports;
  if (events)
    probes.eventStore = async () => {
      // A subscription of this process (the projector, a reaction) that the log stopped for good.
      const failure = events instanceof MeteredEventStore ? events.subscriptionFailure() : undefined;
      if (failure) throw failure;
      return { headPosition: await events.headPosition() };
    };
  if (views)
    probes.readStore = async () => {
      const checkpoint = await views.getCheckpoint(CHECKPOINT);
      // Read after the checkpoint, this log's head is at or past it: views ahead of it were built from
      // another log (the projector, wherever it runs, stops on them). A head that cannot be read is the
      // eventStore check's to report.
      const head = await events?.headPosition().catch(() => undefined);
      const mismatch = head === undefined ? undefined : checkpointBeyondHead(checkpoint, head);
      if (mismatch) throw mismatch;
      return { checkpoint };
    };
  if (jobs && isCountingQueue(jobs))
    probes.jobQueue = async () => ({ queues: Object.keys(await jobs.counts()) });
  // Down while a thread that died is being replaced: writes wait for it meanwhile.
  if (thread)
    probes.storageThread = async () => {
      const failure = thread.failure();
      if (failure) throw failure;
      if (!thread.active()) throw new Error('the storage thread is not running');
      return { projected: thread.checkpoint() };
    };
  return probes;
}

/**
 * Runs every probe in parallel, each bounded by a timeout so that one hung dependency cannot hang the
 * check. Failures are reported without their message: the endpoint is public, and messages can name
 * internal hosts; except a `SubscriptionFailedError`'s, written to be shown, since only an operator can
 * mend it. `onFailure` gets the error to log it.
 */
export async function checkReadiness(
  probes: Record<string, Probe>,
  onFailure: (name: string, error: unknown) => void = () => {},
  timeoutMs = READINESS_TIMEOUT_MS,
): Promise<Readiness> {
  const entries = await Promise.all(
    Object.entries(probes).map(async ([name, probe]): Promise<[string, DependencyStatus]> => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
      });
      try {
        const outcome = await Promise.race([probe(), timeout]);
        if (outcome === 'timeout') {
          onFailure(name, new Error(`no answer within ${timeoutMs} ms`));
          return [name, { status: 'down', reason: 'timeout' }];
        }
        return [name, { status: 'up', ...outcome }];
      } catch (error) {
        onFailure(name, error);
        if (error instanceof SubscriptionFailedError)
          return [name, { status: 'failed', reason: error.message }];
        return [name, { status: 'down', reason: 'error' }];
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const checks = Object.fromEntries(entries);
  const statuses = new Set(entries.map(([, check]) => check.status));
  if (statuses.has('failed')) return { status: 'failed', checks };
  return { status: statuses.has('down') ? 'unavailable' : 'ready', checks };
}
