import { IdentityService } from '@app/identity/write/identity.commands';
import { OrganizationService } from '@app/organizations/write/organization.commands';
import type { Config } from '@app/platform/config/config';
import { CONFIG } from '@app/platform/config/config.module';
import { isReaction, JobHandler, type JobSource, jobHandlerProblems } from '@app/platform/jobs/job-handler';
import { LIVE_PROJECTOR, type LiveProjector } from '@app/platform/projector/projector';
import { Reactor } from '@app/platform/projector/reactor';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { DiscoveryService, ModuleRef } from '@nestjs/core';
import { type BootstrapResult, bootstrapIfEmpty } from './bootstrap';
import { STORAGE } from './core.module';
import { DECLARED_JOBS } from './features';
import { closeStorage, type Storage } from './storage';

/** Follows the log into the read models (standalone and the projector service). */
export class ProjectorRunner {
  constructor(private readonly projector: LiveProjector) {}
  start = () => this.projector.start();
  stop = () => this.projector.stop();
}

/**
 * Runs jobs: registers every job handler, starts from the log the jobs of those that react to events,
 * and sweeps for due work that a crash may have lost (standalone and the worker service).
 */
export class WorkerRunner {
  private readonly logger = new Logger('worker');
  private reactors: Reactor[] = [];
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly storage: Storage,
    private readonly sources: readonly JobSource[],
    private readonly sweepMs: number,
  ) {}

  async start(): Promise<void> {
    for (const source of this.sources) source.register();
    await this.storage.jobs.start();
    this.reactors = this.sources
      .filter(isReaction)
      .map((reaction) => new Reactor(this.storage.events, this.storage.views, reaction));
    for (const reactor of this.reactors) await reactor.start();
    await this.sweep();
    this.timer = setInterval(() => void this.sweep(), this.sweepMs);
    this.timer.unref();
  }

  /** Re-enqueues due work of every handler that sweeps; returns how many jobs. */
  async sweep(): Promise<number> {
    let enqueued = 0;
    for (const source of this.sources) {
      if (!source.sweep) continue;
      try {
        enqueued += await source.sweep();
      } catch (error) {
        this.logger.error(`sweep of ${source.jobNames.join(', ')} failed: ${(error as Error).message}`);
      }
    }
    return enqueued;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    for (const reactor of this.reactors) await reactor.stop();
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
    private readonly discovery: DiscoveryService,
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
      this.workerRunner = new WorkerRunner(this.storage, this.jobSources(), this.config.purgeSweepMs);
      await this.workerRunner.start();
    }
    this.logger.log(
      `storage: ${this.storage.describe}; running ${this.parts.join(', ') || 'no background part'}`,
    );
  }

  /** Every `@JobHandler()` provider, once each job the manifests declare has exactly one. */
  private jobSources(): JobSource[] {
    const sources = this.discovery
      .getProviders({ metadataKey: JobHandler.KEY })
      .map((wrapper) => wrapper.instance as JobSource);
    const problems = jobHandlerProblems(DECLARED_JOBS, sources);
    if (problems.length > 0) throw new Error(`job handlers: ${problems.join('; ')}`);
    return sources;
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
