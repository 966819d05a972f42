import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { type Config, DEFAULT_VIEWS_WAIT_MS } from '../config/config';
import { CONFIG } from '../config/config.module';
import { ProjectionTimeoutError } from './position-waits';
import { LIVE_PROJECTOR, type LiveProjector } from './projector';

/** What a write answers: at least where it landed in the log. */
export type Written = { position: number };

/**
 * Makes a write's response, and any read after it, include the write: waits (bounded, VIEWS_WAIT_MS)
 * until the views have applied the log up to the write's position. A write endpoint is one line:
 * `return this.views.after(this.service.update(...), () => this.queries.get(...))`. A committed write is
 * never answered as a failure for the views' sake: one whose answer holds nothing of the views (`wait`)
 * is answered once the bound passes; one whose answer is read from them can only say it was stored (503).
 */
@Injectable()
export class ReadYourWrites {
  private readonly logger = new Logger('read-your-writes');
  private readonly waitMs: number;

  constructor(
    @Inject(LIVE_PROJECTOR) private readonly projector: LiveProjector,
    @Optional() @Inject(CONFIG) config?: Config,
  ) {
    this.waitMs = config?.viewsWaitMs ?? DEFAULT_VIEWS_WAIT_MS;
  }

  /** Awaits the write, then answers from the read model once the views include it. */
  async after<W extends Written, T>(write: W | Promise<W>, read: (written: W) => Promise<T>): Promise<T> {
    const written = await write;
    await this.projector.waitFor(written.position, this.waitMs);
    return read(written);
  }

  /**
   * Awaits the write and the views including it, for a write whose answer holds nothing of the views (no
   * body, or what the write itself returned): past the bound it is answered all the same, as done.
   */
  async wait<W extends Written>(write: W | Promise<W>): Promise<W> {
    const written = await write;
    try {
      await this.projector.waitFor(written.position, this.waitMs);
    } catch (error) {
      if (!(error instanceof ProjectionTimeoutError)) throw error;
      this.logger.warn(
        `answered a write at ${written.position} before the views included it: ${error.message}`,
      );
    }
    return written;
  }
}
