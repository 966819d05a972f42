import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { EventStore, RecordedEvent } from '../eventstore/event-store.port';
import type { CountingJobQueue, JobCounts } from '../jobs/job-queue.options';
import type { JobQueue } from '../jobs/job-queue.port';
import { CHECKPOINT } from '../projector/projector';
import type { ReadStore } from '../readstore/read-store.port';

/** Unapplied events counted per scrape at most; past this the projector is badly behind anyway. */
const LAG_COUNT_LIMIT = 10_000;
const JOB_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

export function isCountingQueue(queue: JobQueue): queue is CountingJobQueue {
  return typeof (queue as Partial<CountingJobQueue>).counts === 'function';
}

export interface ProjectionSources {
  events: EventStore;
  views: ReadStore;
  /** Time in ms since the epoch, from the same clock that stamps `occurredAt`. */
  now: () => number;
}

/**
 * The metrics of one process, on a registry of its own (never prom-client's global one), so that
 * several applications in one process, as in tests, do not share or clash.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly eventsAppended = new Counter({
    name: 'events_appended_total',
    help: 'Events appended to the log by this process',
    registers: [this.registry],
  });
  private readonly jobsFailed = new Counter({
    name: 'jobs_failed_total',
    help: 'Job runs that threw, by queue; a job retried after a failure counts once per failed attempt',
    labelNames: ['queue'] as const,
    registers: [this.registry],
  });
  private readonly unknownTokens = new Counter({
    name: 'http_unknown_token_requests_total',
    help: 'API requests with an unknown or revoked bearer token, rate-limited by their address',
    registers: [this.registry],
  });
  private readonly writeConflicts = new Counter({
    name: 'write_conflicts_total',
    help: 'Appends refused because the stream moved: refolded (this process had not seen the write), retried, or refused (answered 409)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private watchingProjection = false;
  private watchingJobs = false;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  scrape(): Promise<string> {
    return this.registry.metrics();
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.httpDuration.observe({ method, route, status: String(status) }, seconds);
  }

  eventsAppendedBy(count: number): void {
    this.eventsAppended.inc(count);
  }

  writeConflict(outcome: 'refolded' | 'retried' | 'refused'): void {
    this.writeConflicts.inc({ outcome });
  }

  unknownToken(): void {
    this.unknownTokens.inc();
  }

  jobFailed(queue: string): void {
    this.jobsFailed.inc({ queue });
  }

  /**
   * Projection lag, computed at scrape time from the log and the projector's checkpoint in the read
   * store, so that any process sharing them reports it. Events are counted rather than derived from
   * positions, which are not contiguous on every event store (EventStoreDB uses byte offsets).
   */
  watchProjection(sources: ProjectionSources): void {
    if (this.watchingProjection) return;
    this.watchingProjection = true;
    // Both gauges are collected in the same scrape: they share one read of the log.
    let inFlight: Promise<RecordedEvent[]> | undefined;
    const pending = () => {
      inFlight ??= (async () => {
        const checkpoint = await sources.views.getCheckpoint(CHECKPOINT);
        const head = await sources.events.headPosition();
        return head > checkpoint ? sources.events.readAll(checkpoint, LAG_COUNT_LIMIT) : [];
      })().finally(() => {
        inFlight = undefined;
      });
      return inFlight;
    };
    new Gauge({
      name: 'projection_lag_events',
      help: `Events in the log not yet applied to the views (counted up to ${LAG_COUNT_LIMIT})`,
      registers: [this.registry],
      async collect() {
        this.set(await orNaN(async () => (await pending()).length));
      },
    });
    new Gauge({
      name: 'projection_lag_seconds',
      help: 'Age of the oldest event not yet applied to the views; 0 when they are caught up',
      registers: [this.registry],
      async collect() {
        // Age of the oldest pending event rather than of the last applied one: after a quiet
        // hour the last applied event is an hour old even when the views are only just behind.
        this.set(
          await orNaN(async () => {
            const [oldest] = await pending();
            if (!oldest) return 0;
            return Math.max(0, (sources.now() - Date.parse(oldest.metadata.occurredAt)) / 1000);
          }),
        );
      },
    });
  }

  /** Jobs per queue and state, asked of the queue at scrape time. */
  watchJobQueue(queue: JobQueue): void {
    if (this.watchingJobs || !isCountingQueue(queue)) return;
    this.watchingJobs = true;
    new Gauge({
      name: 'job_queue_depth',
      help: 'Jobs per queue by state (waiting includes due jobs not yet picked up)',
      labelNames: ['queue', 'state'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        // An unreachable queue leaves no series rather than failing the whole scrape; /ready says why.
        const counts = await queue.counts().catch(() => ({}) as Record<string, JobCounts>);
        for (const [name, byState] of Object.entries(counts)) {
          for (const state of JOB_STATES) this.set({ queue: name, state }, byState[state]);
        }
      },
    });
  }
}

/** An unreachable store makes the gauge NaN (unknown) instead of failing the whole scrape. */
async function orNaN(read: () => Promise<number>): Promise<number> {
  try {
    return await read();
  } catch {
    return Number.NaN;
  }
}
