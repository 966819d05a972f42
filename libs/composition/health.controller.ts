import { Public } from '@app/platform/auth/auth.guard';
import { checkReadiness, storageProbes } from '@app/platform/observability/readiness';
import { LIVE_PROJECTOR, type LiveProjector } from '@app/platform/projector/projector';
import { Controller, Get, Inject, Logger, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { STORAGE } from './core.module';
import type { Storage } from './storage';

/** Liveness and readiness, outside /v1 and without a token. */
@Controller()
export class HealthController {
  private readonly logger = new Logger('health');

  constructor(
    @Inject(LIVE_PROJECTOR) private readonly projector: LiveProjector,
    @Inject(STORAGE) private readonly storage: Storage,
  ) {}

  @Public()
  @Get('health')
  health() {
    return { status: 'ok' };
  }

  /**
   * 503 while any dependency is unreachable, so that a balancer stops sending traffic here, or failed for
   * good (views of another log, access refused by the log), which the body names.
   */
  @Public()
  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    const readiness = await checkReadiness(storageProbes(this.storage), (name, error) =>
      this.logger.warn(`${name} is not ready: ${error instanceof Error ? error.message : String(error)}`),
    );
    if (readiness.status !== 'ready') reply.status(503);
    const events = readiness.checks.eventStore;
    const head = events?.status === 'up' ? events.headPosition : undefined;
    return { ...readiness, log: { head, projected: this.projector.checkpoint() } };
  }
}
