import { Controller, Get, Header } from '@nestjs/common';
import { Registry } from 'prom-client';
import { Public } from '../auth/auth.guard';
import { Observability } from './observability';

/** Prometheus text exposition, without a token like the health checks; keep it off the public network. */
@Controller()
export class MetricsController {
  constructor(private readonly observability: Observability) {}

  @Public()
  @Get('metrics')
  @Header('Content-Type', Registry.PROMETHEUS_CONTENT_TYPE)
  metrics(): Promise<string> {
    return this.observability.metrics.scrape();
  }
}
