import type pino from 'pino';
import type { EventStore } from '../eventstore/event-store.port';
import type { JobQueue } from '../jobs/job-queue.port';
import { createLogger, type LoggerOptions, PinoLoggerService } from './logger';
import { MeteredEventStore } from './metered-event-store';
import { Metrics } from './metrics';
import { ObservedJobQueue } from './observed-job-queue';

/**
 * The logger and metrics of one process (or one application in a test). Built before Nest, whose
 * own logger it provides, and handed to ObservabilityModule.
 */
export class Observability {
  readonly metrics = new Metrics();
  readonly nestLogger: PinoLoggerService;

  constructor(readonly logger: pino.Logger) {
    this.nestLogger = new PinoLoggerService(logger);
  }
}

export function createObservability(options: LoggerOptions): Observability {
  return new Observability(createLogger(options));
}

/** Wraps the storage ports so that appends are counted and jobs log under their correlation id. */
export function observeStorage<S extends { events: EventStore; jobs: JobQueue }>(
  storage: S,
  observability: Observability,
): S {
  return {
    ...storage,
    events: new MeteredEventStore(storage.events, observability.metrics),
    jobs: new ObservedJobQueue(
      storage.jobs,
      observability.metrics,
      observability.logger.child({ context: 'jobs' }),
    ),
  };
}
