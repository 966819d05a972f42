import { IdentityService } from '@app/identity/write/identity.commands';
import { OrganizationService } from '@app/organizations/write/organization.commands';
import type { Config } from '@app/platform/config/config';
import { CONFIG } from '@app/platform/config/config.module';
import { LIVE_PROJECTOR, type LiveProjector } from '@app/platform/projector/projector';
import { Reactor } from '@app/platform/projector/reactor';
import { SpacePurges } from '@app/spaces/write/space-purge.job';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { type BootstrapResult, bootstrapIfEmpty } from './bootstrap';
import { STORAGE } from './core.module';
import { closeStorage, type Storage } from './storage';

/** Follows the log into the read models (standalone and the projector service). */
export class ProjectorRunner {
  constructor(private readonly projector: LiveProjector) {}
  start = () => this.projector.start();
  stop = () => this.projector.stop();
}

/**
 * Runs jobs: registers handlers, schedules purges from the log and sweeps for due ones that a crash
 * may have lost (standalone and the worker service).
 */
export class WorkerRunner {
  private readonly logger = new Logger('worker');
  private reactor?: Reactor;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly storage: Storage,
    private readonly purges: SpacePurges,
    private readonly sweepMs: number,
  ) {}

  async start(): Promise<void> {
    this.purges.register();
    await this.storage.jobs.start();
    this.reactor = new Reactor(this.storage.events, this.storage.views, this.purges);
    await this.reactor.start();
    await this.sweep();
    this.timer = setInterval(() => void this.sweep(), this.sweepMs);
    this.timer.unref();
  }

  /** Re-enqueues due purges; returns how many. */
  async sweep(): Promise<number> {
    try {
      return await this.purges.sweep();
    } catch (error) {
      this.logger.error(`purge sweep failed: ${(error as Error).message}`);
      return 0;
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.reactor?.stop();
  }
}

export type RuntimePart = 'projector' | 'worker' | 'bootstrap';
export const RUNTIME_PARTS = Symbol('RUNTIME_PARTS');

/**
 * Starts what runs beside the HTTP server of a process, by the parts its role needs: standalone has
 * them all; the projector, worker and command services one each.
 */
@Injectable()
export class Runtime implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('runtime');
  private projectorRunner?: ProjectorRunner;
  private workerRunner?: WorkerRunner;
  bootstrapped: BootstrapResult | null = null;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(STORAGE) private readonly storage: Storage,
    @Inject(RUNTIME_PARTS) private readonly parts: RuntimePart[],
    @Inject(LIVE_PROJECTOR) private readonly projector: LiveProjector,
    private readonly moduleRef: ModuleRef,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.parts.includes('projector')) {
      this.projectorRunner = new ProjectorRunner(this.projector);
      await this.projectorRunner.start();
    }
    if (this.parts.includes('bootstrap')) {
      this.bootstrapped = await bootstrapIfEmpty(
        this.storage.events,
        this.moduleRef.get(IdentityService, { strict: false }),
        this.moduleRef.get(OrganizationService, { strict: false }),
        this.config.bootstrapToken,
      );
      if (this.bootstrapped && this.projectorRunner)
        await this.projector.waitFor(this.bootstrapped.position, 30_000);
    }
    if (this.parts.includes('worker')) {
      const purges = this.moduleRef.get(SpacePurges, { strict: false });
      this.workerRunner = new WorkerRunner(this.storage, purges, this.config.purgeSweepMs);
      await this.workerRunner.start();
    }
    this.logger.log(
      `storage: ${this.storage.describe}; running ${this.parts.join(', ') || 'no background part'}`,
    );
  }

  sweep(): Promise<number> {
    return this.workerRunner?.sweep() ?? Promise.resolve(0);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.workerRunner?.stop();
    await this.projectorRunner?.stop();
    await closeStorage(this.storage);
  }
}
