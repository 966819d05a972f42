import type { EventStore } from '../eventstore/event-store.port';
import type { JobQueue } from '../jobs/job-queue.port';
import { CHECKPOINT } from '../projector/projector';
import type { ReadStore } from '../readstore/read-store.port';
import { isCountingQueue } from './metrics';

export const READINESS_TIMEOUT_MS = 2000;

/** Resolves with details to report when the dependency answers; rejects (or hangs) when it does not. */
export type Probe = () => Promise<Record<string, unknown>>;

export type DependencyStatus =
  | ({ status: 'up' } & Record<string, unknown>)
  | { status: 'down'; reason: 'error' | 'timeout' };

export interface Readiness {
  status: 'ready' | 'unavailable';
  checks: Record<string, DependencyStatus>;
}

/** A thread a process's storage depends on (the standalone server's storage thread). */
export interface StorageThreadState {
  active(): boolean;
  checkpoint(): number;
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
  if (events) probes.eventStore = async () => ({ headPosition: await events.headPosition() });
  if (views) probes.readStore = async () => ({ checkpoint: await views.getCheckpoint(CHECKPOINT) });
  if (jobs && isCountingQueue(jobs))
    probes.jobQueue = async () => ({ queues: Object.keys(await jobs.counts()) });
  // Down while a thread that died is being replaced: writes wait for it meanwhile.
  if (thread)
    probes.storageThread = async () => {
      if (!thread.active()) throw new Error('the storage thread is not running');
      return { projected: thread.checkpoint() };
    };
  return probes;
}

/**
 * Runs every probe in parallel, each bounded by a timeout so that one hung dependency cannot hang the
 * check. Failures are reported without their message: the endpoint is public, and messages can name
 * internal hosts. `onFailure` gets the error to log it.
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
        return [name, { status: 'down', reason: 'error' }];
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const checks = Object.fromEntries(entries);
  const ready = entries.every(([, check]) => check.status === 'up');
  return { status: ready ? 'ready' : 'unavailable', checks };
}
