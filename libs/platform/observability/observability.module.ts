import {
  type DynamicModule,
  Global,
  Inject,
  Injectable,
  Module,
  type OnApplicationShutdown,
  Optional,
} from '@nestjs/common';
import { CLOCK, type Clock } from '../clock/clock';
import { EVENT_STORE, type EventStore } from '../eventstore/event-store.port';
import { JOB_QUEUE, type JobQueue } from '../jobs/job-queue.port';
import { READ_STORE, type ReadStore } from '../readstore/read-store.port';
import { MetricsController } from './metrics.controller';
import { Observability } from './observability';

/** Points the scrape-time gauges at whichever ports this process has. */
@Injectable()
class MetricSources {
  constructor(
    observability: Observability,
    @Optional() @Inject(EVENT_STORE) events?: EventStore,
    @Optional() @Inject(READ_STORE) views?: ReadStore,
    @Optional() @Inject(JOB_QUEUE) jobs?: JobQueue,
    @Optional() @Inject(CLOCK) clock?: Clock,
  ) {
    const { metrics } = observability;
    if (events && views)
      metrics.watchProjection({ events, views, now: () => (clock ? clock.now() : Date.now()) });
    if (jobs) metrics.watchJobQueue(jobs);
  }
}

/** Writes out buffered log lines when the application shuts down (a signal bypasses pino's exit hook). */
@Injectable()
class LogFlusher implements OnApplicationShutdown {
  constructor(private readonly observability: Observability) {}
  onApplicationShutdown(): void {
    this.observability.logger.flush();
  }
}

/**
 * `GET /metrics` and the process's Observability for injection. Any application can import it next
 * to its own modules; keep `metrics` out of a global route prefix.
 */
@Global()
@Module({})
export class ObservabilityModule {
  static forRoot(observability: Observability): DynamicModule {
    return {
      module: ObservabilityModule,
      controllers: [MetricsController],
      providers: [{ provide: Observability, useValue: observability }, MetricSources, LogFlusher],
      exports: [Observability],
    };
  }
}
